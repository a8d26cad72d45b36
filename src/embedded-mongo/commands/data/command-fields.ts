import type { Document } from 'bson';
import { CommandError, ErrorCodes } from '../../protocol/command-error';

/**
 * Typed readers for command fields. Numbers may arrive as JS numbers or as Int32 / Double / Long /
 * Decimal128 objects (depending on how the wire layer deserialises), so every reader accepts all.
 */

export function requiredString(command: Document, field: string): string {
  const value: unknown = command[field];
  if (typeof value !== 'string') throw badValue(`'${field}' must be a string, got ${describe(value)}`);
  return value;
}

/** The collection a command targets: the value of its first field (`{ find: "users", ... }`). */
export function targetCollection(command: Document, name: string): string {
  const value: unknown = command[name];
  if (typeof value !== 'string' || value.length === 0) {
    throw new CommandError(73, 'InvalidNamespace', `collection name has invalid type ${describe(value)}`);
  }
  return value;
}

export function optionalString(command: Document, field: string): string | undefined {
  const value: unknown = command[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badValue(`'${field}' must be a string, got ${describe(value)}`);
  return value;
}

export function optionalDocument(command: Document, field: string): Document | undefined {
  const value: unknown = command[field];
  if (value === undefined || value === null) return undefined;
  if (!isDocument(value)) throw badValue(`'${field}' must be an object, got ${describe(value)}`);
  return value;
}

export function documentArray(command: Document, field: string): Document[] {
  const value: unknown = command[field];
  if (!Array.isArray(value) || !value.every(isDocument)) throw badValue(`'${field}' must be an array of objects`);
  return value;
}

export function optionalDocumentArray(command: Document, field: string): Document[] | undefined {
  return command[field] === undefined || command[field] === null ? undefined : documentArray(command, field);
}

/** Booleans; MongoDB also accepts numbers here (`multi: 1`). */
export function optionalBoolean(command: Document, field: string): boolean | undefined {
  const value: unknown = command[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'boolean') return value;
  const number = numericValue(value);
  if (number === undefined) throw badValue(`'${field}' must be a boolean, got ${describe(value)}`);
  return number !== 0;
}

export function optionalInteger(command: Document, field: string): number | undefined {
  const value: unknown = command[field];
  if (value === undefined || value === null) return undefined;
  const number = numericValue(value);
  if (number === undefined || !Number.isFinite(number)) throw badValue(`'${field}' must be a number, got ${describe(value)}`);
  return Math.trunc(number);
}

/** A 64-bit id (cursor ids, txnNumber) as a bigint. */
export function int64Value(value: unknown, field: string): bigint {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isInteger(value)) return BigInt(value);
  if (typeof value === 'object' && value !== null) {
    const tag = (value as { _bsontype?: unknown })._bsontype;
    if (tag === 'Long') return (value as { toBigInt(): bigint }).toBigInt();
    if (tag === 'Int32' || tag === 'Double') return BigInt(Math.trunc((value as { value: number }).value));
  }
  throw badValue(`'${field}' must be an integer, got ${describe(value)}`);
}

export function numericValue(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value !== 'object' || value === null) return undefined;
  switch ((value as { _bsontype?: unknown })._bsontype) {
    case 'Int32':
    case 'Double':
      return (value as { value: number }).value;
    case 'Long':
      return (value as { toNumber(): number }).toNumber();
    case 'Decimal128':
      return Number(String(value));
    default:
      return undefined;
  }
}

export function isDocument(value: unknown): value is Document {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date) return false;
  return (value as { _bsontype?: unknown })._bsontype === undefined;
}

export function badValue(message: string): CommandError {
  return new CommandError(ErrorCodes.BadValue, 'BadValue', message);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'object') return String((value as { _bsontype?: unknown })._bsontype ?? 'object');
  return typeof value;
}
