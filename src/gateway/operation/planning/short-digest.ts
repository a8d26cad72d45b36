import { createHash } from 'node:crypto';
import { EJSON } from 'bson';

/** The first `length` hex digits of the SHA-1 of `value` as canonical EJSON: a short name part that is the same for equal values. */
export function digestOf(value: unknown, length: number): string {
  return createHash('sha1').update(EJSON.stringify(value, { relaxed: false })).digest('hex').slice(0, length);
}
