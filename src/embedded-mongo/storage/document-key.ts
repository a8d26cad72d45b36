import { valueKey } from '../query';

/**
 * The key of a value in the `_id` map and in equality indexes: values MongoDB treats as equal share
 * one (`valueKey`; an ObjectId's is "o" plus its 12 bytes, 32 bytes of heap). The key is flattened
 * before it is kept: keys built by concatenation are V8 rope strings, and a rope weighs several
 * times its flat form, which matters at 100,000 documents per collection.
 */
export function indexKey(value: unknown): string {
  const key = valueKey(value);
  // Number() reads the whole string, which makes V8 flatten the rope in place
  Number(key);
  return key;
}

/** The `_id` map key of a document id. */
export function documentKey(id: unknown): string {
  return indexKey(id);
}
