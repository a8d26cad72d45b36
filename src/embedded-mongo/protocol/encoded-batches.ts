import { serialize, type Document } from 'bson';

/** BSON element types the encoders write. */
export const BSON_DOCUMENT = 0x03;
export const BSON_ARRAY = 0x04;

/** How every reply is written: `ignoreUndefined` so handlers can leave optional reply fields undefined instead of sending null. */
export const REPLY_SERIALIZE_OPTIONS = { checkKeys: false, ignoreUndefined: true } as const;

/** A cursor batch as a BSON array (the value of `firstBatch`/`nextBatch`), and the documents it was written from. */
export interface EncodedBatch {
  readonly bytes: Uint8Array;
  readonly documents: readonly Document[];
}

/**
 * A cursor batch's documents as BSON, written once when the batch was taken (which is also how its
 * size was measured): the reply's encoder copies these bytes instead of writing the documents again.
 * Keyed by the batch array itself, so every in-process reader still sees plain documents.
 */
const ENCODED_BATCHES = new WeakMap<readonly Document[], EncodedBatch>();

/** `document` as a reply writes it; its byteLength is what the document counts toward a batch's size. */
export function encodeBatchDocument(document: Document): Uint8Array {
  return serialize(document, REPLY_SERIALIZE_OPTIONS);
}

/** `documents` as one BSON array, in one pass: the bytes a reply holds for them (array header and keys included). */
export function encodeBatchArray(documents: readonly Document[]): Uint8Array {
  const wrapped = serialize({ a: documents }, REPLY_SERIALIZE_OPTIONS);
  // int32 length, the element's type (array) and name "a\0" … the array … the wrapper's closing 0
  return wrapped.subarray(4 + 1 + 2, wrapped.byteLength - 1);
}

/** Remembers the bytes of `batch` as a BSON array. */
export function rememberEncodedBatch(batch: readonly Document[], bytes: Uint8Array): void {
  ENCODED_BATCHES.set(batch, { bytes, documents: [...batch] });
}

/**
 * The bytes remembered for `batch`, when it is a batch taken by the cursor store and still holds the
 * same documents in the same order (the documents themselves are the batch's own: stored ones are
 * frozen, projected ones new).
 */
export function encodedBatch(batch: unknown): Uint8Array | undefined {
  if (!Array.isArray(batch)) return undefined;
  const encoded = ENCODED_BATCHES.get(batch);
  if (encoded === undefined || encoded.documents.length !== batch.length) return undefined;
  return encoded.documents.every((doc, index) => doc === batch[index]) ? encoded.bytes : undefined;
}

/** A BSON array of already-encoded documents, keys "0", "1", …, each document's bytes copied once. */
export function arrayOfEncoded(documents: readonly Uint8Array[]): Uint8Array {
  // Keys are ASCII digits: a key's bytes are its characters, and a NUL closes it.
  let length = 4 + 1;
  documents.forEach((bytes, index) => (length += 1 + String(index).length + 1 + bytes.byteLength));
  const out = Buffer.allocUnsafe(length);
  out.writeInt32LE(length, 0);
  let at = 4;
  documents.forEach((bytes, index) => {
    out[at++] = BSON_DOCUMENT;
    at += out.write(String(index), at, 'latin1');
    out[at++] = 0;
    out.set(bytes, at);
    at += bytes.byteLength;
  });
  out[at] = 0;
  return out;
}
