import type { ObjectId } from 'bson';

/**
 * bson 7 keeps an ObjectId's 12 bytes as four big-endian 24-bit integers (`i0`..`i3`, internal
 * fields) and allocates a new buffer on every `.id` read. Reading the integers compares and hashes
 * ObjectIds without allocating; callers fall back to the public API when they are absent
 * (an ObjectId from another bson build).
 */
export interface PackedObjectId {
  readonly i0: number;
  readonly i1: number;
  readonly i2: number;
  readonly i3: number;
}

export function packedObjectId(id: ObjectId): PackedObjectId | undefined {
  const packed = id as unknown as Partial<PackedObjectId>;
  return typeof packed.i0 === 'number' ? (packed as PackedObjectId) : undefined;
}

/** A set of packed ObjectIds: the first six bytes (exact in a double) → the last six of each member. */
export class PackedObjectIdSet {
  private readonly byHigh = new Map<number, number[]>();

  add(id: PackedObjectId): void {
    const high = id.i0 * 0x1000000 + id.i1;
    const lows = this.byHigh.get(high);
    if (lows === undefined) this.byHigh.set(high, [id.i2, id.i3]);
    else lows.push(id.i2, id.i3);
  }

  has(id: PackedObjectId): boolean {
    const lows = this.byHigh.get(id.i0 * 0x1000000 + id.i1);
    if (lows === undefined) return false;
    for (let i = 0; i < lows.length; i += 2) if (lows[i] === id.i2 && lows[i + 1] === id.i3) return true;
    return false;
  }
}

/**
 * An ObjectId's equality key: "o" and its 12 bytes as one-byte characters. Fixed length, so it stays
 * unambiguous inside composite keys, and built without the 24-character hex string.
 */
export function objectIdKey(id: ObjectId): string {
  const packed = packedObjectId(id);
  if (packed === undefined) {
    const b = id.id;
    return String.fromCharCode(0x6f, b[0]!, b[1]!, b[2]!, b[3]!, b[4]!, b[5]!, b[6]!, b[7]!, b[8]!, b[9]!, b[10]!, b[11]!);
  }
  const { i0, i1, i2, i3 } = packed;
  // prettier-ignore
  return String.fromCharCode(
    0x6f,
    i0 >>> 16, (i0 >>> 8) & 0xff, i0 & 0xff,
    i1 >>> 16, (i1 >>> 8) & 0xff, i1 & 0xff,
    i2 >>> 16, (i2 >>> 8) & 0xff, i2 & 0xff,
    i3 >>> 16, (i3 >>> 8) & 0xff, i3 & 0xff,
  );
}
