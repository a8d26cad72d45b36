import type { Binary, Code, ObjectId, Timestamp } from 'bson';
import { TypeRank, typeRank } from '../../bson/type-rank';
import { regexParts, stringValue } from '../../bson/bson-text';
import { numberKey } from '../../bson/bson-number';
import { objectIdKey } from '../../bson/packed-object-id';

/**
 * A string that is equal for two values exactly when MongoDB's equality (`$eq`, `$in`, index
 * lookups, `$group` keys) treats them as equal: numbers by value across Int32/Double/Long/Decimal128,
 * ObjectId by its 12 bytes (as 12 one-byte characters), Date by time, documents field-order-sensitively, and null equal to missing
 * (MongoDB docs: "Comparison/Sort Order" and "Query for Null or Missing Fields").
 */
export function valueKey(value: unknown): string {
  const rank = typeRank(value);
  switch (rank) {
    case TypeRank.MinKey:
      return 'm';
    case TypeRank.Null:
      return 'z';
    case TypeRank.Number:
      return numberKey(value);
    case TypeRank.String:
      return `s${JSON.stringify(stringValue(value))}`;
    case TypeRank.Object: {
      let key = '{';
      const doc = value as Record<string, unknown>;
      for (const field of Object.keys(doc)) key += `${JSON.stringify(field)}:${valueKey(doc[field])},`;
      return `${key}}`;
    }
    case TypeRank.Array:
      return `[${(value as unknown[]).map(valueKey).join(',')}]`;
    case TypeRank.BinData: {
      const binary = value as Binary;
      return `x${binary.sub_type}:${Buffer.from(binary.buffer.subarray(0, binary.length())).toString('base64')}`;
    }
    case TypeRank.ObjectId:
      return objectIdKey(value as ObjectId);
    case TypeRank.Boolean:
      return value ? 'T' : 'F';
    case TypeRank.Date:
      return `d${(value as Date).getTime()}`;
    case TypeRank.Timestamp: {
      const ts = value as Timestamp;
      return `t${ts.t}:${ts.i}`;
    }
    case TypeRank.RegExp: {
      const parts = regexParts(value);
      return `r${JSON.stringify(parts?.pattern)}/${parts?.flags ?? ''}`;
    }
    case TypeRank.Code: {
      const code = value as Code;
      return `c${JSON.stringify(code.code)}${code.scope ? valueKey(code.scope) : ''}`;
    }
    case TypeRank.MaxKey:
      return 'M';
    default: {
      const unreachable: never = rank;
      return unreachable;
    }
  }
}

/** MongoDB equality of two values (no array "any element" semantics). */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a === 'string' && typeof b === 'string') return false;
  if (typeof a === 'number' && typeof b === 'number') return Number.isNaN(a) && Number.isNaN(b);
  return valueKey(a) === valueKey(b);
}
