import { ObjectId, type Document } from 'bson';
import { CommandError, ErrorCodes } from '../commands/command-error';
import { cloneDocument } from '../query';

/**
 * The copy of a client document that the store keeps: deep-copied (so the caller's object can change
 * freely), `_id` generated as an ObjectId when missing and placed first, and frozen, so a document
 * handed to a cursor, a pipeline or a snapshot can never change underneath it.
 */
export function storableDocument(doc: Document): Document {
  const copy = cloneDocument(doc);
  const id: unknown = copy._id === undefined ? new ObjectId() : copy._id;
  assertStorableId(id);
  const ordered: Document = { _id: id };
  for (const key of Object.keys(copy)) if (key !== '_id') ordered[key] = copy[key];
  return deepFreeze(ordered);
}

function assertStorableId(id: unknown): void {
  if (Array.isArray(id)) throw new CommandError(ErrorCodes.BadValue, 'BadValue', `can't use an array for _id`);
  if (id instanceof RegExp || (typeof id === 'object' && id !== null && (id as { _bsontype?: unknown })._bsontype === 'BSONRegExp')) {
    throw new CommandError(ErrorCodes.BadValue, 'BadValue', `can't use a regex for _id`);
  }
}

/** Freezes plain objects and arrays only: BSON value classes (Binary holds a Uint8Array) stay as they are. */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) {
    for (const element of value) deepFreeze(element);
    return Object.freeze(value);
  }
  if (value instanceof Date || (value as { _bsontype?: unknown })._bsontype !== undefined) return value;
  for (const inner of Object.values(value)) deepFreeze(inner);
  return Object.freeze(value);
}
