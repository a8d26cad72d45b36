import { deserialize, serialize, type BSONRegExp, type Document } from 'bson';
import { BSON_ARRAY, BSON_DOCUMENT, encodedBatch, REPLY_SERIALIZE_OPTIONS } from '../protocol/encoded-batches';

/**
 * BSON bytes ⇄ documents, with the number representation storage and query share:
 * - Int32 → JS number; Int64 → `Long` at every magnitude; Decimal128 → `Decimal128`.
 * - Double → JS number, except a Double whose value `bson` would write back as Int32 (an integral
 *   value in int32 range, e.g. 1.0), which stays a `Double` wrapper so it round-trips as a Double.
 *   This is the same convention as query/bson-number.ts `asDouble`.
 * - Binary stays `Binary`; ObjectId, Date, Timestamp, MinKey/MaxKey keep their classes.
 * - A regex becomes a JS `RegExp` as `bson` would make it, unless JavaScript cannot compile its
 *   pattern or has no flag for one of its options: then it stays a `BSONRegExp`, so it is stored and
 *   read back unchanged and a query by it fails as a command (compile-filter.ts) instead of the
 *   whole message failing to decode.
 * bson's `promoteValues` is all-or-nothing, so documents are decoded unpromoted and then normalised.
 */
const DESERIALIZE_OPTIONS = {
  promoteValues: false,
  promoteLongs: false,
  promoteBuffers: false,
  useBigInt64: false,
  bsonRegExp: true,
} as const;

/** Decodes exactly one document occupying all of `bytes`; throws bson's error when invalid. */
export function decodeBsonDocument(bytes: Uint8Array): Document {
  return normalizeNumbers(deserialize(bytes, DESERIALIZE_OPTIONS)) as Document;
}

export function encodeBsonDocument(document: Document): Buffer {
  if (cursorWithEncodedBatch(document)) return encodeAroundBatch(document);
  const bytes = serialize(document, REPLY_SERIALIZE_OPTIONS);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A cursor reply (`{ cursor: { firstBatch | nextBatch } }`) whose batch the cursor store already encoded. */
function cursorWithEncodedBatch(document: Document): boolean {
  const cursor: unknown = document.cursor;
  if (typeof cursor !== 'object' || cursor === null) return false;
  const { firstBatch, nextBatch } = cursor as Document;
  return encodedBatch(firstBatch ?? nextBatch) !== undefined;
}

/**
 * The document written field by field, as bson writes it, except that a batch already encoded is
 * written from its bytes, and the cursor holding it the same way.
 */
function encodeAroundBatch(document: Document): Buffer {
  const elements: Uint8Array[] = [];
  for (const [key, value] of Object.entries(document)) {
    const encoded = encodedBatch(value);
    if (encoded !== undefined) elements.push(...element(BSON_ARRAY, key, encoded));
    else if (key === 'cursor' && cursorWithEncodedBatch(document)) elements.push(...element(BSON_DOCUMENT, key, encodeAroundBatch(value as Document)));
    else {
      const alone = serialize({ [key]: value }, REPLY_SERIALIZE_OPTIONS);
      elements.push(alone.subarray(4, alone.byteLength - 1));
    }
  }
  return documentOf(elements);
}

/** An element's pieces: its type and name, then its value. */
function element(type: number, key: string, value: Uint8Array): Uint8Array[] {
  return [Buffer.from([type]), Buffer.from(`${key}\0`, 'utf8'), value];
}

/** int32 total length, the elements' bytes in order, a closing 0. */
function documentOf(elements: readonly Uint8Array[]): Buffer {
  const length = 4 + elements.reduce((sum, bytes) => sum + bytes.byteLength, 0) + 1;
  const out = Buffer.allocUnsafe(length);
  out.writeInt32LE(length, 0);
  let at = 4;
  for (const bytes of elements) {
    out.set(bytes, at);
    at += bytes.byteLength;
  }
  out[at] = 0;
  return out;
}

const INT32_MIN = -0x80000000;
const INT32_MAX = 0x7fffffff;

/** True when `bson` would serialise this JS number as Int32 (mirrors its serializeNumber). */
function writtenAsInt32(value: number): boolean {
  return !Object.is(value, -0) && Number.isSafeInteger(value) && value >= INT32_MIN && value <= INT32_MAX;
}

/** Rewrites the freshly decoded (and so unshared) value in place. */
function normalizeNumbers(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = normalizeNumbers(value[i]);
    return value;
  }
  const tag = (value as { _bsontype?: unknown })._bsontype;
  if (tag === undefined) {
    if (value instanceof Date || value instanceof RegExp) return value;
    normalizeFields(value as Record<string, unknown>);
    return value;
  }
  switch (tag) {
    case 'Int32':
      return (value as { value: number }).value;
    case 'Double': {
      const number = (value as { value: number }).value;
      return writtenAsInt32(number) ? value : number;
    }
    case 'BSONRegExp':
      return javaScriptRegExp(value as BSONRegExp) ?? value;
    case 'DBRef': {
      const ref = value as { oid: unknown; fields: Record<string, unknown> };
      ref.oid = normalizeNumbers(ref.oid);
      normalizeFields(ref.fields);
      return value;
    }
    default:
      return value;
  }
}

/** bson's own translation of options to flags, `s` kept as `g` so that it is written back as `s`. */
const FLAG_OF_OPTION: Readonly<Record<string, string>> = { i: 'i', m: 'm', s: 'g' };

function javaScriptRegExp(regex: BSONRegExp): RegExp | undefined {
  const flags = [...regex.options].map((option) => FLAG_OF_OPTION[option]);
  if (flags.some((flag) => flag === undefined)) return undefined;
  try {
    return new RegExp(regex.pattern, flags.join(''));
  } catch {
    return undefined;
  }
}

function normalizeFields(object: Record<string, unknown>): void {
  for (const key of Object.keys(object)) {
    const before = object[key];
    const after = normalizeNumbers(before);
    if (after === before) continue;
    // A field literally named __proto__ is an own data property here; plain assignment would set the prototype.
    if (key === '__proto__') Object.defineProperty(object, key, { value: after, enumerable: true, writable: true, configurable: true });
    else object[key] = after;
  }
}
