import { Long } from 'bson';
import { INT64_MAX, INT64_MIN, toExact } from '../../bson/bson-number';
import { bsonTag } from '../../bson/bson-tag';
import { namedError } from '../protocol/command-error';

/**
 * MongoDB's `$toLong` (`$convert` to "long" with no onError): null for null or missing; a number
 * truncated toward zero, failing with ConversionFailure (241) outside the int64 range or for NaN and
 * infinities; a boolean as 0 or 1; a date as its milliseconds; a base-10 integer string parsed.
 * `typeName` names any other type in its ConversionFailure.
 */
export function toLong(value: unknown, typeName: (value: unknown) => string): Long | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'boolean') return Long.fromNumber(value ? 1 : 0);
  if (value instanceof Date) return Long.fromNumber(value.getTime());
  if (typeof value === 'string') return parsed(value);
  if (typeof value === 'object' && bsonTag(value) === 'Long') return value as Long;
  const exact = toExact(value);
  if (exact === undefined) throw conversionFailure(`Unsupported conversion from ${typeName(value)} to long in $convert with no onError value`);
  if (exact.kind !== 'finite') throw conversionFailure(`Attempt to convert ${exact.kind === 'nan' ? 'NaN' : 'infinity'} value to integer type in $convert with no onError value`);
  const scale = 10n ** BigInt(Math.abs(exact.exponent));
  const truncated = exact.exponent >= 0 ? exact.coefficient * scale : exact.coefficient / scale;
  if (truncated < INT64_MIN || truncated > INT64_MAX) throw conversionFailure(`Conversion would overflow target type in $convert with no onError value: ${String(value)}`);
  return Long.fromBigInt(truncated);
}

function parsed(text: string): Long {
  if (!/^[+-]?\d+$/.test(text)) throw conversionFailure(`Failed to parse number '${text}' in $convert with no onError value: Did not consume whole string.`);
  const integer = BigInt(text);
  if (integer < INT64_MIN || integer > INT64_MAX) throw conversionFailure(`Failed to parse number '${text}' in $convert with no onError value: Out of range`);
  return Long.fromBigInt(integer);
}

function conversionFailure(message: string): Error {
  return namedError('ConversionFailure', message);
}
