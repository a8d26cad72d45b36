import type { BSONRegExp } from 'bson';
import { bsonTag } from './bson-tag';

/** The text of a string or a BSONSymbol. */
export function stringValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'object' && value !== null && bsonTag(value) === 'BSONSymbol') {
    return String((value as { value: unknown }).value);
  }
  return undefined;
}

/** Pattern and flags of a JS RegExp or a BSONRegExp. */
export function regexParts(value: unknown): { pattern: string; flags: string } | undefined {
  if (value instanceof RegExp) return { pattern: value.source, flags: value.flags };
  if (typeof value === 'object' && value !== null && bsonTag(value) === 'BSONRegExp') {
    const regex = value as BSONRegExp;
    return { pattern: regex.pattern, flags: regex.options };
  }
  return undefined;
}
