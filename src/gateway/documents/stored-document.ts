/** A stored document as the gateway sees it. */
export type StoredDocument = Record<string, unknown>;

/** An object literal (or one made with a null prototype), as JSON input and documents hold: not an array, an ObjectId or a Date. */
export function isPlainObject(value: unknown): value is StoredDocument {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
