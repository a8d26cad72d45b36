import { Binary, BSONRegExp, DBRef, UUID } from 'bson';
import { bsonTag } from './bson-kind';

/**
 * A deep copy that keeps BSON classes. Immutable BSON values (ObjectId, Long, Decimal128, Int32,
 * Double, Timestamp, MinKey, MaxKey, Code, BSONSymbol) are shared rather than copied: nothing in
 * this server mutates them, and sharing keeps stored data close to its BSON size. Values with
 * mutable state (documents, arrays, Date, RegExp, Binary/UUID buffers) are copied.
 */
export function cloneDocument<T>(doc: T): T {
  return cloneValue(doc) as T;
}

function cloneValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(cloneValue);
  if (value instanceof Date) return new Date(value.getTime());
  if (value instanceof RegExp) return new RegExp(value.source, value.flags);
  const tag = bsonTag(value);
  if (tag === undefined) return clonePlain(value as Record<string, unknown>);
  switch (tag) {
    case 'Binary': {
      const binary = value as Binary;
      const bytes = new Uint8Array(binary.buffer.subarray(0, binary.length()));
      return value instanceof UUID ? new UUID(bytes) : new Binary(bytes, binary.sub_type);
    }
    case 'BSONRegExp': {
      const regex = value as BSONRegExp;
      return new BSONRegExp(regex.pattern, regex.options);
    }
    case 'DBRef': {
      const ref = value as DBRef;
      return new DBRef(ref.collection, cloneValue(ref.oid) as DBRef['oid'], ref.db, clonePlain(ref.fields));
    }
    default:
      return value;
  }
}

function clonePlain(doc: Record<string, unknown>): Record<string, unknown> {
  return copyFields(doc, cloneValue);
}

/** A new document with each of `doc`'s fields, in order, as `copyValue` copies them. */
function copyFields(doc: Record<string, unknown>, copyValue: (value: unknown) => unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(doc)) {
    const value = copyValue(doc[key]);
    // a stored "__proto__" field must stay data, not become the copy's prototype
    if (key === '__proto__') Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
    else copy[key] = value;
  }
  return copy;
}

/**
 * A value one document may hold beside others: its frozen (stored) parts are shared, as a stage that
 * writes thaws a copy first (thawDocument); its unfrozen documents and arrays are copied, since
 * thawDocument fixes unfrozen parts up in place and a write into one holder must not reach another.
 */
export function unsharedValue<T>(value: T): T {
  return copyUnfrozen(value) as T;
}

function copyUnfrozen(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) return value.map(copyUnfrozen);
  if (value instanceof Date || value instanceof RegExp || bsonTag(value) !== undefined) return cloneValue(value);
  return copyFields(value as Record<string, unknown>, copyUnfrozen);
}

/**
 * `value` frozen all the way down, as stored documents are, so several holders may share it: a stage
 * that writes thaws a copy first (thawDocument). Parts already frozen are left as they are; Dates and
 * BSON values are not frozen (stored documents do not freeze them either: cloneValue copies them).
 */
export function deepFrozen<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) {
    for (const element of value) deepFrozen(element);
    return Object.freeze(value);
  }
  if (value instanceof Date || value instanceof RegExp || bsonTag(value) !== undefined) return value;
  for (const key of Object.keys(value)) deepFrozen((value as Record<string, unknown>)[key]);
  return Object.freeze(value);
}

/**
 * Makes a pipeline document safe to mutate while copying as little as possible: frozen parts
 * (stored documents and their subdocuments, shared until a stage needs to change them) are
 * deep-copied, and unfrozen ones (built by earlier stages, so owned by the pipeline) are kept and
 * fixed up in place. Dates, RegExps and Binary values are copied, as cloneDocument does.
 */
export function thawDocument<T>(doc: T): T {
  return thawValue(doc) as T;
}

function thawValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Object.isFrozen(value)) return cloneValue(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const element: unknown = value[i];
      const thawed = thawValue(element);
      if (thawed !== element) value[i] = thawed;
    }
    return value;
  }
  if (value instanceof Date || value instanceof RegExp || bsonTag(value) !== undefined) return cloneValue(value);
  const doc = value as Record<string, unknown>;
  for (const key of Object.keys(doc)) {
    const field = doc[key];
    const thawed = thawValue(field);
    if (thawed === field) continue;
    if (key === '__proto__') Object.defineProperty(doc, key, { value: thawed, enumerable: true, writable: true, configurable: true });
    else doc[key] = thawed;
  }
  return doc;
}
