import { Decimal128, Int32, Long, type Document } from 'bson';
import { CommandError } from '../../../../src/embedded-mongo/protocol/command-error';
import type { Collection } from '../../../../src/embedded-mongo/storage/collection';
import type { CollectionView } from '../../../../src/embedded-mongo/storage/collection-view';
import { documentKey } from '../../../../src/embedded-mongo/storage/document-key';
import { Store } from '../../../../src/embedded-mongo/storage/store';
import { storableDocument } from '../../../../src/embedded-mongo/storage/stored-document';

function setUp(docs: Document[]): { store: Store; collection: Collection; view: CollectionView } {
  const store = new Store();
  const collection = store.ensureCollection('db', 'things');
  const view = store.view(collection, undefined);
  for (const doc of docs) view.insert(storableDocument(doc));
  return { store, collection, view };
}

/** Runs `view.match` and reports how many documents the filter was evaluated on. */
function examined(collection: Collection, run: () => Document[]): { ids: unknown[]; examined: number } {
  const before = collection.docsExamined;
  const ids = run().map((doc) => doc._id);
  return { ids, examined: collection.docsExamined - before };
}

function duplicateKey(run: () => void): CommandError {
  try {
    run();
  } catch (error) {
    if (error instanceof CommandError) return error;
    throw error;
  }
  throw new Error('expected a DuplicateKey error');
}

const many = Array.from({ length: 1000 }, (_, i) => ({ _id: i, group: i % 10, tags: [`t${i % 7}`, `u${i % 5}`], authors: [{ id: i }, { id: i + 1 }] }));

describe('Collection indexes and the planner', () => {
  it('looks documents up by _id without scanning', () => {
    const { collection, view } = setUp(many);
    expect(examined(collection, () => view.match({ _id: { $in: [5, 500, 999, 5000] } }))).toEqual({ ids: [5, 500, 999], examined: 3 });
    expect(examined(collection, () => view.match({ group: 3 })).examined).toBe(1000);
  });

  it('treats numerically equal _ids of different types as the same key, as MongoDB does', () => {
    const { collection, view } = setUp(many);
    expect(examined(collection, () => view.match({ _id: { $in: [Long.fromNumber(7), new Int32(8), Decimal128.fromString('9')] } }))).toEqual({
      ids: [7, 8, 9],
      examined: 3,
    });
  });

  it('uses a single-field index for equality and $in, and the full filter still applies to candidates', () => {
    const { store, collection, view } = setUp(many);
    store.createIndexes(collection, [{ name: 'group_1', key: { group: 1 }, unique: false, sparse: false, options: {} }]);
    const found = examined(collection, () => view.match({ group: { $in: [2, 4] }, _id: { $lt: 30 } }));
    // _id has a range, not an equality, so the group index drives: 200 candidates, 6 matches
    expect(found).toEqual({ ids: [2, 12, 22, 4, 14, 24], examined: 200 });
  });

  it('indexes every element of an array (multikey) and dotted paths through arrays of subdocuments', () => {
    const { store, collection, view } = setUp(many);
    store.createIndexes(collection, [{ name: 'tags_1', key: { tags: 1 }, unique: false, sparse: false, options: {} }]);
    store.createIndexes(collection, [{ name: 'authors.id_1', key: { 'authors.id': 1 }, unique: false, sparse: false, options: {} }]);
    expect(examined(collection, () => view.match({ 'authors.id': { $in: [10, 500] } }))).toEqual({ ids: [9, 10, 499, 500], examined: 4 });
    const tagged = examined(collection, () => view.match({ tags: 't3', _id: { $lt: 40 } }));
    expect(tagged.ids).toEqual([3, 10, 17, 24, 31, 38]);
    expect(tagged.examined).toBe(143); // the 143 documents tagged t3, not 1000
  });

  it('finds a whole-array equality through a multikey index', () => {
    const { store, collection, view } = setUp([
      { _id: 1, tags: ['a', 'b'] },
      { _id: 2, tags: ['b', 'a'] },
      { _id: 3, tags: [['a', 'b'], 'c'] },
    ]);
    store.createIndexes(collection, [{ name: 'tags_1', key: { tags: 1 }, unique: false, sparse: false, options: {} }]);
    const found = examined(collection, () => view.match({ tags: ['a', 'b'] }));
    expect(found.ids.sort()).toEqual([1, 3]);
    expect(found.examined).toBe(2);
  });

  it('keeps indexes current through replace and remove', () => {
    const { store, collection, view } = setUp([
      { _id: 1, group: 'a' },
      { _id: 2, group: 'a' },
    ]);
    store.createIndexes(collection, [{ name: 'group_1', key: { group: 1 }, unique: false, sparse: false, options: {} }]);
    view.replace(documentKey(1), storableDocument({ _id: 1, group: 'b' }));
    expect(view.match({ group: 'a' }).map((doc) => doc._id)).toEqual([2]);
    expect(view.match({ group: 'b' }).map((doc) => doc._id)).toEqual([1]);
    view.remove(documentKey(2));
    expect(view.match({ group: 'a' })).toEqual([]);
  });

  it('plans with the indexes as they are now: one created after a query is used, one dropped is not', () => {
    const { store, collection, view } = setUp(many);
    expect(examined(collection, () => view.match({ group: 3 })).examined).toBe(1000);
    store.createIndexes(collection, [{ name: 'group_1', key: { group: 1 }, unique: false, sparse: false, options: {} }]);
    expect(examined(collection, () => view.match({ group: 3 })).examined).toBe(100);
    store.dropIndexes(collection, ['group_1']);
    expect(examined(collection, () => view.match({ group: 3 })).examined).toBe(1000);
    // A sparse index on the field in its place: null, which also matches the missing field, scans again.
    store.createIndexes(collection, [{ name: 'group_sparse', key: { group: 1 }, unique: false, sparse: true, options: {} }]);
    expect(examined(collection, () => view.match({ group: { $in: [3, null] } })).examined).toBe(1000);
    expect(examined(collection, () => view.match({ group: 3 })).examined).toBe(100);
  });

  it('uses the first field of a compound index', () => {
    const { store, collection, view } = setUp(many);
    store.createIndexes(collection, [{ name: 'group_1__id_-1', key: { group: 1, _id: -1 }, unique: false, sparse: false, options: {} }]);
    expect(examined(collection, () => view.match({ group: 9, tags: 'u4' })).examined).toBe(100);
  });
});

describe('unique indexes', () => {
  it('rejects a second document with the same key, with MongoDB error fields', () => {
    const { store, collection, view } = setUp([{ _id: 1, email: 'a@x' }]);
    store.createIndexes(collection, [{ name: 'email_1', key: { email: 1 }, unique: true, sparse: false, options: {} }]);
    const error = duplicateKey(() => view.insert(storableDocument({ _id: 2, email: 'a@x' })));
    expect(error.code).toBe(11000);
    expect(error.message).toBe('E11000 duplicate key error collection: db.things index: email_1 dup key: { email: "a@x" }');
    expect(error.extra).toEqual({ keyPattern: { email: 1 }, keyValue: { email: 'a@x' } });
    expect(view.count()).toBe(1);
  });

  it('rejects duplicate _ids on the _id_ index', () => {
    const { view } = setUp([{ _id: 'k' }]);
    const error = duplicateKey(() => view.insert(storableDocument({ _id: 'k', other: 1 })));
    expect(error.message).toBe('E11000 duplicate key error collection: db.things index: _id_ dup key: { _id: "k" }');
    expect(error.extra).toEqual({ keyPattern: { _id: 1 }, keyValue: { _id: 'k' } });
  });

  it('is multikey: array elements are unique across documents but may repeat inside one document', () => {
    const { store, collection, view } = setUp([{ _id: 1, codes: ['a', 'b', 'b'] }]);
    store.createIndexes(collection, [{ name: 'codes_1', key: { codes: 1 }, unique: true, sparse: false, options: {} }]);
    const error = duplicateKey(() => view.insert(storableDocument({ _id: 2, codes: ['c', 'b'] })));
    expect(error.extra).toEqual({ keyPattern: { codes: 1 }, keyValue: { codes: 'b' } });
    view.insert(storableDocument({ _id: 3, codes: ['c', 'd'] }));
    // a document may keep its own keys when it is rewritten
    view.replace(documentKey(1), storableDocument({ _id: 1, codes: ['a', 'b', 'e'] }));
    expect(view.count()).toBe(2);
  });

  it('treats missing fields as null unless the index is sparse', () => {
    const plain = setUp([{ _id: 1 }]);
    plain.store.createIndexes(plain.collection, [{ name: 'email_1', key: { email: 1 }, unique: true, sparse: false, options: {} }]);
    const error = duplicateKey(() => plain.view.insert(storableDocument({ _id: 2 })));
    expect(error.message).toBe('E11000 duplicate key error collection: db.things index: email_1 dup key: { email: null }');

    const sparse = setUp([{ _id: 1 }]);
    sparse.store.createIndexes(sparse.collection, [{ name: 'email_1', key: { email: 1 }, unique: true, sparse: true, options: {} }]);
    sparse.view.insert(storableDocument({ _id: 2 }));
    sparse.view.insert(storableDocument({ _id: 3, email: 'a' }));
    expect(() => sparse.view.insert(storableDocument({ _id: 4, email: 'a' }))).toThrow('dup key: { email: "a" }');
    expect(sparse.view.count()).toBe(3);
  });

  it('enforces a compound unique index on the whole key tuple', () => {
    const { store, collection, view } = setUp([{ _id: 1, postId: 1, userId: 1 }]);
    store.createIndexes(collection, [{ name: 'postId_1_userId_1', key: { postId: 1, userId: 1 }, unique: true, sparse: false, options: {} }]);
    view.insert(storableDocument({ _id: 2, postId: 1, userId: 2 }));
    const error = duplicateKey(() => view.insert(storableDocument({ _id: 3, postId: 1, userId: 2 })));
    expect(error.extra).toEqual({ keyPattern: { postId: 1, userId: 1 }, keyValue: { postId: 1, userId: 2 } });
  });

  it('refuses to build a unique index over duplicate data', () => {
    const { store, collection } = setUp([
      { _id: 1, email: 'same' },
      { _id: 2, email: 'same' },
    ]);
    const error = duplicateKey(() => store.createIndexes(collection, [{ name: 'email_1', key: { email: 1 }, unique: true, sparse: false, options: {} }]));
    expect(error.message).toBe('E11000 duplicate key error collection: db.things index: email_1 dup key: { email: "same" }');
    expect(collection.indexDefinitions().map((definition) => definition.name)).toEqual(['_id_']);
  });
});

describe('stored documents', () => {
  it('are copies with _id first (generated as an ObjectId when missing) and frozen', () => {
    const original: Document = { name: 'x', nested: { list: [1, 2] } };
    const { view } = setUp([original]);
    original.nested.list.push(3);
    const [stored] = view.match({});
    expect(Object.keys(stored!)).toEqual(['_id', 'name', 'nested']);
    expect(stored!._id._bsontype).toBe('ObjectId');
    expect(stored!.nested.list).toEqual([1, 2]);
    expect(Object.isFrozen(stored!.nested.list)).toBe(true);
    expect(() => {
      'use strict';
      stored!.nested.list.push(4);
    }).toThrow(TypeError);
  });

  it('reject an array _id', () => {
    expect(() => storableDocument({ _id: [1] })).toThrow("can't use an array for _id");
  });
});
