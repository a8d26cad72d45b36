import { calculateObjectSize, ObjectId, type Document } from 'bson';
import { MAX_BSON_OBJECT_SIZE } from '../protocol/wire-constants';
import { CommandError, ErrorCodes, namedError } from '../protocol/command-error';
import { cloneDocument } from '../query';

/**
 * Repeated values within one write command, shared between the documents it stores. Denormalized
 * data repeats a lot (every log message carries its host's id, name and address), and a decoded
 * string or ObjectId is a separate heap object per occurrence; sharing them cuts the store's memory
 * by about a third on such data. Strings and ObjectIds are immutable, so sharing is invisible.
 * Live for one command only, so it never grows with the collection.
 */
export class ValueInterner {
  private readonly strings = new Map<string, string>();
  private readonly objectIds = new Map<string, ObjectId>();

  string(value: string): string {
    if (value.length > MAX_INTERNED_LENGTH) return value;
    const known = this.strings.get(value);
    if (known !== undefined) return known;
    this.strings.set(value, value);
    return value;
  }

  objectId(value: ObjectId): ObjectId {
    const hex = value.toHexString();
    const known = this.objectIds.get(hex);
    if (known !== undefined) return known;
    this.objectIds.set(hex, value);
    return value;
  }
}

/** Long strings rarely repeat, and hashing them costs their length. */
const MAX_INTERNED_LENGTH = 128;

/**
 * The copy of a client document that the store keeps: deep-copied (so the caller's object can change
 * freely), `_id` generated as an ObjectId when missing and placed first, and deep-frozen, so a
 * document handed to a cursor, a pipeline or a snapshot can never change underneath it. Pass one
 * `interner` to every document of a write command to share their repeated values.
 */
export function storableDocument(doc: Document, interner: ValueInterner = new ValueInterner()): Document {
  assertWithinDocumentLimit(doc);
  const id: unknown = doc._id === undefined ? new ObjectId() : doc._id;
  assertStorableId(id);
  // the _id is copied but not interned: it is unique in the collection
  const stored = newDocumentObject(Object.keys(doc).length + (doc._id === undefined ? 1 : 0));
  stored._id = isObjectId(id) ? id : storedValue(id, interner);
  for (const key of Object.keys(doc)) if (key !== '_id') setField(stored, key, storedValue(doc[key], interner));
  return Object.freeze(stored);
}

/**
 * An empty object with room for `fieldCount` fields inside it. `{}` has 4 in-object slots, and a
 * fifth field moves every further field into a separate property array (~40 B more per document).
 * Objects built by a constructor get in-object slack that V8 shrinks to what the constructor's
 * instances use; one constructor per field count makes that exactly `fieldCount` slots.
 */
function newDocumentObject(fieldCount: number): Document {
  if (fieldCount <= 4 || fieldCount > MAX_SIZED_FIELDS) return {};
  let construct = SIZED_CONSTRUCTORS[fieldCount];
  if (construct === undefined) {
    construct = sizedConstructor();
    SIZED_CONSTRUCTORS[fieldCount] = construct;
  }
  return new construct();
}

/** V8 starts a constructor's instances with 8 spare in-object slots (then shrinks to what they used). */
const MAX_SIZED_FIELDS = 8;
const SIZED_CONSTRUCTORS: (new () => Document)[] = [];

function sizedConstructor(): new () => Document {
  // a fresh function per field count: each has its own initial map, so slack tracking sizes it alone
  const construct = function StoredDocument(): void {} as unknown as new () => Document;
  // plain objects in every way that matters (prototype, JSON, bson): only the allocation differs
  (construct as unknown as { prototype: object }).prototype = Object.prototype;
  return construct;
}

function storedValue(value: unknown, interner: ValueInterner): unknown {
  if (typeof value === 'string') return interner.string(value);
  if (typeof value !== 'object' || value === null) return value;
  // map() allocates exactly the length; push() from [] would reserve ~17 slots per array
  if (Array.isArray(value)) return Object.freeze(value.map((element: unknown) => storedValue(element, interner)));
  if (isObjectId(value)) return interner.objectId(value);
  if (value instanceof Date && Number.isNaN(value.getTime())) throw outOfRangeDate();
  // Date, RegExp, Binary and the other BSON classes: cloneDocument knows which ones to copy
  if (value instanceof Date || value instanceof RegExp || (value as { _bsontype?: unknown })._bsontype !== undefined) return cloneDocument(value);
  const source = value as Record<string, unknown>;
  const keys = Object.keys(source);
  const stored: Record<string, unknown> = newDocumentObject(keys.length);
  for (const key of keys) setField(stored, key, storedValue(source[key], interner));
  return Object.freeze(stored);
}

/**
 * js-bson decodes a date past JavaScript's range (±8.64e15 ms: Java's `new Date(Long.MAX_VALUE)`, or one
 * `$toDate` computed) as an Invalid Date, which it encodes as 1970: refused rather than stored as another date.
 */
function outOfRangeDate(): CommandError {
  return new CommandError(ErrorCodes.BadValue, 'BadValue', "the embedded server cannot store a date outside JavaScript's range (years -271821 to 275760); MongoDB can");
}

function setField(target: Record<string, unknown>, key: string, value: unknown): void {
  // a stored "__proto__" field must stay data, not become the copy's prototype
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function isObjectId(value: unknown): value is ObjectId {
  return typeof value === 'object' && value !== null && (value as { _bsontype?: unknown })._bsontype === 'ObjectId';
}

function assertStorableId(id: unknown): void {
  if (Array.isArray(id)) throw new CommandError(ErrorCodes.BadValue, 'BadValue', `can't use an array for _id`);
  if (id instanceof RegExp || (typeof id === 'object' && id !== null && (id as { _bsontype?: unknown })._bsontype === 'BSONRegExp')) {
    throw new CommandError(ErrorCodes.BadValue, 'BadValue', `can't use a regex for _id`);
  }
  const dollarField = dollarPrefixedField(id);
  if (dollarField !== undefined) {
    // MongoDB's storage_validation::storageValidIdField, for inserts and upserts alike (5.0+)
    throw namedError('DollarPrefixedFieldName', `_id fields may not contain '$'-prefixed fields: ${dollarField} is not valid for storage.`);
  }
}

/** The first `$`-prefixed field name inside a document `_id`, at any depth (arrays included). */
function dollarPrefixedField(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || value instanceof Date) return undefined;
  if (Array.isArray(value)) {
    for (const element of value) {
      const found = dollarPrefixedField(element);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if ((value as { _bsontype?: unknown })._bsontype !== undefined) return undefined;
  for (const [key, child] of Object.entries(value)) {
    if (key.startsWith('$')) return key;
    const found = dollarPrefixedField(child);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * MongoDB stores no document past 16 MiB (BSONObjMaxUserSize): an insert of one, or an update whose
 * result would be one, fails that statement with BSONObjectTooLarge and leaves the collection as it was.
 */
function assertWithinDocumentLimit(doc: Document): void {
  const size = calculateObjectSize(doc);
  if (size > MAX_BSON_OBJECT_SIZE) throw new CommandError(10334, 'BSONObjectTooLarge', `object to store too large. size in bytes: ${size}, max size: ${MAX_BSON_OBJECT_SIZE}`);
}
