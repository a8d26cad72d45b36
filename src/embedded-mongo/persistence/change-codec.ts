import type { Document } from 'bson';
import { parseCollation } from '../query';
import type { IndexDefinition } from '../storage/equality-index';
import type { JournaledBatch, JournaledWrite, StoreChange } from '../storage/store-change';
import { storableDocument, ValueInterner } from '../storage/stored-document';

/**
 * A StoreChange ⇄ the BSON documents of its record (record-frame.ts): a header `{ op, ... }`,
 * then one `{ put: document }` or `{ delete: _id }` per document write.
 *
 *   { op: 'createCollection', db, name, options }       { op: 'dropCollection', db, name }
 *   { op: 'createView', db, name, viewOn, pipeline, collation? }   { op: 'dropView', db, name }
 *   { op: 'dropDatabase', db }
 *   { op: 'createIndexes', db, collection, indexes: [{ name, key, unique, sparse, options }] }
 *   { op: 'dropIndexes', db, collection, names }
 *   { op: 'writeDocuments', batches: [{ db, collection, count }], session?, txnNumber?, at? } + count writes per batch
 *     (session, txnNumber as decimal text, and at: the transaction the commit completes)
 *   { op: 'replaceCollection', db, name, count } + count puts
 */
export function encodeChange(change: StoreChange): Document[] {
  switch (change.kind) {
    case 'createCollection':
      return [{ op: change.kind, db: change.database, name: change.name, options: change.options }];
    case 'dropCollection':
    case 'dropView':
      return [{ op: change.kind, db: change.database, name: change.name }];
    case 'createView': {
      const { view } = change;
      const header: Document = { op: change.kind, db: change.database, name: view.name, viewOn: view.viewOn, pipeline: view.pipeline };
      if (view.collation !== undefined) header.collation = view.collation.toDocument();
      return [header];
    }
    case 'dropDatabase':
      return [{ op: change.kind, db: change.database }];
    case 'createIndexes':
      return [{ op: change.kind, db: change.database, collection: change.collection, indexes: change.indexes.map(indexDocument) }];
    case 'dropIndexes':
      return [{ op: change.kind, db: change.database, collection: change.collection, names: change.names }];
    case 'writeDocuments': {
      const { committed } = change;
      const entries: Document[] = [
        {
          op: change.kind,
          batches: change.batches.map((batch) => ({ db: batch.database, collection: batch.collection, count: batch.writes.length })),
          ...(committed && { session: committed.session, txnNumber: committed.txnNumber.toString(), at: committed.at }),
        },
      ];
      for (const batch of change.batches) for (const write of batch.writes) entries.push('doc' in write ? { put: write.doc } : { delete: write.deletedId });
      return entries;
    }
    case 'replaceCollection':
      return [{ op: change.kind, db: change.database, name: change.name, count: change.documents.length }, ...change.documents.map((doc) => ({ put: doc }))];
    default: {
      const unknown: never = change;
      throw new Error(`encodeChange: unknown change ${String(unknown)}`);
    }
  }
}

/**
 * The change a record holds. Its documents come back as stored copies (frozen, as Store keeps
 * them). Throws when the record is not one `encodeChange` writes.
 */
export function decodeChange(entries: readonly Document[]): StoreChange {
  const [header, ...writes] = entries;
  if (header === undefined) throw new Error('empty record');
  const op = stringField(header, 'op');
  const database = (): string => stringField(header, 'db');
  const expectNoWrites = (change: StoreChange): StoreChange => {
    if (writes.length > 0) throw new Error(`a ${op} record has ${writes.length} unexpected documents`);
    return change;
  };
  switch (op) {
    case 'createCollection':
      return expectNoWrites({ kind: op, database: database(), name: stringField(header, 'name'), options: documentField(header, 'options') });
    case 'dropCollection':
    case 'dropView':
      return expectNoWrites({ kind: op, database: database(), name: stringField(header, 'name') });
    case 'createView': {
      const pipeline = arrayField(header, 'pipeline').map((stage, i) => asDocument(stage, `pipeline.${i}`));
      const collation = header.collation === undefined ? undefined : parseCollation(header.collation);
      return expectNoWrites({ kind: op, database: database(), view: { name: stringField(header, 'name'), viewOn: stringField(header, 'viewOn'), pipeline, collation } });
    }
    case 'dropDatabase':
      return expectNoWrites({ kind: op, database: database() });
    case 'createIndexes': {
      const indexes = arrayField(header, 'indexes').map((index, i) => indexDefinition(asDocument(index, `indexes.${i}`)));
      return expectNoWrites({ kind: op, database: database(), collection: stringField(header, 'collection'), indexes });
    }
    case 'dropIndexes': {
      const names = arrayField(header, 'names').map((name, i) => asString(name, `names.${i}`));
      return expectNoWrites({ kind: op, database: database(), collection: stringField(header, 'collection'), names });
    }
    case 'writeDocuments': {
      const batches = writeBatches(arrayField(header, 'batches'), writes);
      if (header.session === undefined) return { kind: op, batches };
      const txnNumber = stringField(header, 'txnNumber');
      if (!/^\d+$/.test(txnNumber)) throw new Error(`a writeDocuments record has txnNumber "${txnNumber}", not a whole number`);
      return { kind: op, batches, committed: { session: stringField(header, 'session'), txnNumber: BigInt(txnNumber), at: numberField(header, 'at') } };
    }
    case 'replaceCollection': {
      const interner = new ValueInterner();
      const documents = writes.map((entry, i) => {
        const write = journaledWrite(entry, interner, i);
        if (!('doc' in write)) throw new Error('a replaceCollection record holds a delete');
        return write.doc;
      });
      if (documents.length !== numberField(header, 'count')) throw new Error(`a replaceCollection record has ${documents.length} documents, not ${String(header.count)}`);
      return { kind: op, database: database(), name: stringField(header, 'name'), documents };
    }
    default:
      throw new Error(`unknown record op '${op}'`);
  }
}

function indexDocument(index: IndexDefinition): Document {
  return { name: index.name, key: index.key, unique: index.unique, sparse: index.sparse, options: index.options };
}

function indexDefinition(document: Document): IndexDefinition {
  return {
    name: stringField(document, 'name'),
    key: documentField(document, 'key'),
    unique: booleanField(document, 'unique'),
    sparse: booleanField(document, 'sparse'),
    options: documentField(document, 'options'),
  };
}

function writeBatches(batches: unknown[], entries: readonly Document[]): JournaledBatch[] {
  const interner = new ValueInterner();
  let next = 0;
  const decoded = batches.map((value, i) => {
    const batch = asDocument(value, `batches.${i}`);
    const count = numberField(batch, 'count');
    if (next + count > entries.length) throw new Error(`a writeDocuments record lists ${count} writes in batch ${i} but holds fewer`);
    const writes = entries.slice(next, next + count).map((entry, j) => journaledWrite(entry, interner, next + j));
    next += count;
    return { database: stringField(batch, 'db'), collection: stringField(batch, 'collection'), writes };
  });
  if (next !== entries.length) throw new Error(`a writeDocuments record holds ${entries.length - next} writes no batch lists`);
  return decoded;
}

function journaledWrite(entry: Document, interner: ValueInterner, position: number): JournaledWrite {
  if (entry.put !== undefined) return { doc: storableDocument(asDocument(entry.put, `write ${position}.put`), interner) };
  if ('delete' in entry) return { deletedId: entry.delete };
  throw new Error(`write ${position} is neither a put nor a delete`);
}

function stringField(document: Document, field: string): string {
  return asString(document[field], field);
}

function asString(value: unknown, path: string): string {
  if (typeof value !== 'string') throw new Error(`'${path}' is not a string`);
  return value;
}

function numberField(document: Document, field: string): number {
  const value: unknown = document[field];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new Error(`'${field}' is not a count`);
  return value;
}

function booleanField(document: Document, field: string): boolean {
  const value: unknown = document[field];
  if (typeof value !== 'boolean') throw new Error(`'${field}' is not a boolean`);
  return value;
}

function documentField(document: Document, field: string): Document {
  return asDocument(document[field], field);
}

function arrayField(document: Document, field: string): unknown[] {
  const value: unknown = document[field];
  if (!Array.isArray(value)) throw new Error(`'${field}' is not an array`);
  return value;
}

function asDocument(value: unknown, path: string): Document {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || (value as { _bsontype?: unknown })._bsontype !== undefined) {
    throw new Error(`'${path}' is not a document`);
  }
  return value as Document;
}
