import type { Binary, Timestamp } from 'bson';

/** MongoDB's order within BinData: length first, then subtype, then bytes. */
export function compareBinary(a: Binary, b: Binary): number {
  const la = a.length();
  const lb = b.length();
  if (la !== lb) return la < lb ? -1 : 1;
  if (a.sub_type !== b.sub_type) return a.sub_type < b.sub_type ? -1 : 1;
  return compareBytes(a.buffer.subarray(0, la), b.buffer.subarray(0, lb));
}

/** Byte by byte, a shorter prefix first. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a[i] as number;
    const y = b[i] as number;
    if (x !== y) return x < y ? -1 : 1;
  }
  return Math.sign(a.length - b.length);
}

/** By seconds, then by the increment within the second. */
export function compareTimestamps(a: Timestamp, b: Timestamp): number {
  if (a.t !== b.t) return a.t < b.t ? -1 : 1;
  if (a.i !== b.i) return a.i < b.i ? -1 : 1;
  return 0;
}
