import { Decimal128, Long, ObjectId, type Document } from 'bson';
import type { Collection } from '../../../../src/embedded-mongo/storage/collection';
import type { CollectionView } from '../../../../src/embedded-mongo/storage/collection-view';
import { documentKey } from '../../../../src/embedded-mongo/storage/document-key';
import { Store } from '../../../../src/embedded-mongo/storage/store';
import { sortDocuments } from '../../../../src/embedded-mongo/query';
import { storableDocument } from '../../../../src/embedded-mongo/storage/stored-document';

function setUp(docs: Document[]): { store: Store; collection: Collection; view: CollectionView } {
  const store = new Store();
  const collection = store.ensureCollection('db', 'things');
  const view = store.view(collection, undefined);
  for (const doc of docs) view.insert(storableDocument(doc));
  return { store, collection, view };
}

function examined<T>(collection: Collection, run: () => T): { result: T; examined: number } {
  const before = collection.docsExamined;
  const result = run();
  return { result, examined: collection.docsExamined - before };
}

const ids = (docs: Document[]): unknown[] => docs.map((doc) => doc._id);

// _ids inserted out of order, values with ties and mixed types
const values = [3, 'x', null, Long.fromNumber(3), 2.5, new Decimal128('3'), undefined, 'a', 7];
const docs = Array.from({ length: 300 }, (_, i) => {
  const id = (i * 7919) % 300;
  const value = values[id % values.length];
  return value === undefined ? { _id: id, group: id % 4 } : { _id: id, group: id % 4, v: value };
});

describe('CollectionView.find', () => {
  it('returns the same documents as a full sort for sort + skip + limit, with ties and mixed types', () => {
    const { view } = setUp(docs);
    for (const sort of [{ v: 1 }, { v: -1 }, { v: 1, _id: -1 }, { group: -1, v: 1 }]) {
      const full = ids(sortDocuments(view.match({}), sort));
      expect(ids(view.find({}, { sort, limit: 20 }))).toEqual(full.slice(0, 20));
      expect(ids(view.find({}, { sort, skip: 15, limit: 10 }))).toEqual(full.slice(15, 25));
      expect(ids(view.find({}, { sort, skip: 290 }))).toEqual(full.slice(290));
      expect(ids(view.find({ group: 2 }, { sort, limit: 5 }))).toEqual(ids(sortDocuments(view.match({ group: 2 }), sort)).slice(0, 5));
    }
  });

  it('walks the _id order for a sort on _id over a scan, stopping after skip + limit', () => {
    const { collection, view } = setUp(docs);
    expect(examined(collection, () => ids(view.find({}, { sort: { _id: 1 }, limit: 5 })))).toEqual({ result: [0, 1, 2, 3, 4], examined: 5 });
    expect(examined(collection, () => ids(view.find({}, { sort: { _id: -1, v: 1 }, skip: 2, limit: 3 })))).toEqual({ result: [297, 296, 295], examined: 5 });
    // a filter runs on each document walked; the walk stops once enough match
    expect(examined(collection, () => ids(view.find({ group: 3 }, { sort: { _id: 1 }, limit: 2 })))).toEqual({ result: [3, 7], examined: 8 });
    expect(() => view.find({}, { sort: { _id: 1, v: 2 }, limit: 1 })).toThrow(/must be 1/);
  });

  it('keeps the _id order up to date across inserts, updates and deletes', () => {
    const { view } = setUp(docs);
    expect(ids(view.find({}, { sort: { _id: 1 }, limit: 2 }))).toEqual([0, 1]);
    view.insert(storableDocument({ _id: -1, group: 0 }));
    view.remove(documentKey(0));
    view.replace(documentKey(1), storableDocument({ _id: 1, group: 9 }));
    const first = view.find({}, { sort: { _id: 1 }, limit: 3 });
    expect(ids(first)).toEqual([-1, 1, 2]);
    expect(first[1]!.group).toBe(9);
    expect(ids(view.find({}, { sort: { _id: -1 }, limit: 1 }))).toEqual([299]);
  });

  it("walks an indexed key's documents in _id order for a sort on _id alone, and keeps that order through writes", () => {
    const { store, collection, view } = setUp(docs);
    store.createIndexes(collection, [{ name: 'group_1', key: { group: 1 }, unique: false, sparse: false, options: {} }]);
    expect(examined(collection, () => ids(view.find({ group: 1 }, { sort: { _id: -1 }, limit: 3 })))).toEqual({ result: [297, 293, 289], examined: 3 });
    expect(examined(collection, () => ids(view.find({ group: 1 }, { sort: { _id: 1 }, skip: 1, limit: 2 })))).toEqual({ result: [5, 9], examined: 3 });
    // the rest of the filter runs on each document walked; a sort on more than `_id` sorts the key's 75 candidates
    expect(ids(view.find({ group: 1, v: 3 }, { sort: { _id: 1 }, limit: 2 }))).toEqual(ids(sortDocuments(view.match({ group: 1, v: 3 }), { _id: 1 })).slice(0, 2));
    expect(examined(collection, () => view.find({ group: 1 }, { sort: { _id: 1, v: 1 }, limit: 1 })).examined).toBe(75);
    view.insert(storableDocument({ _id: -3, group: 1 }));
    view.replace(documentKey(5), storableDocument({ _id: 5, group: 2 }));
    view.remove(documentKey(297));
    for (const direction of [1, -1] as const) {
      expect(ids(view.find({ group: 1 }, { sort: { _id: direction } }))).toEqual(ids(sortDocuments(view.match({ group: 1 }), { _id: direction })));
    }
    expect(ids(view.find({ group: 1 }, { sort: { _id: 1 }, limit: 3 }))).toEqual([-3, 1, 9]);
  });

  it('sorts inside a transaction by _id from its snapshot and own writes', () => {
    const { store, collection } = setUp(docs);
    const transaction = store.sessions.start('s1', 1n);
    const inside = store.view(collection, transaction);
    inside.insert(storableDocument({ _id: -5, group: 0 }));
    inside.remove(documentKey(0));
    store.view(collection, undefined).insert(storableDocument({ _id: -9, group: 0 })); // committed after the snapshot
    expect(ids(inside.find({}, { sort: { _id: 1 }, limit: 3 }))).toEqual([-5, 1, 2]);
    expect(ids(store.view(collection, undefined).find({}, { sort: { _id: 1 }, limit: 3 }))).toEqual([-9, 0, 1]);
  });
});

describe('compound index order', () => {
  const logs = Array.from({ length: 60 }, (_, i) => ({ _id: i, host: i % 3, time: (i * 37) % 20, level: i % 2 ? 'info' : 'error' }));
  const compound = { name: 'host_1_time_-1__id_-1', key: { host: 1, time: -1, _id: -1 }, unique: false, sparse: false, options: {} };

  function indexed(): ReturnType<typeof setUp> {
    const set = setUp(logs);
    set.store.createIndexes(set.collection, [{ name: 'host_1', key: { host: 1 }, unique: false, sparse: false, options: {} }, compound]);
    return set;
  }

  it('walks the index for an equality on its first field and a sort on the rest, stopping after skip + limit', () => {
    const { collection, view } = indexed();
    const expected = (filter: Document, sort: Document) => ids(sortDocuments(view.match(filter), sort));
    for (const sort of [{ time: -1, _id: -1 }, { time: 1, _id: 1 }, { time: -1 }, { time: 1 }]) {
      expect(examined(collection, () => ids(view.find({ host: 1 }, { sort, limit: 4 })))).toEqual({ result: expected({ host: 1 }, sort).slice(0, 4), examined: 4 });
      expect(examined(collection, () => ids(view.find({ host: 2 }, { sort, skip: 3, limit: 2 })))).toEqual({ result: expected({ host: 2 }, sort).slice(3, 5), examined: 5 });
      expect(ids(view.find({ host: 0 }, { sort }))).toEqual(expected({ host: 0 }, sort));
    }
    // the rest of the filter runs on each document walked; the walk stops once enough match
    const errors = expected({ host: 1, level: 'error' }, { time: -1, _id: -1 });
    expect(ids(view.find({ host: 1, level: 'error' }, { sort: { time: -1, _id: -1 }, limit: 2 }))).toEqual(errors.slice(0, 2));
  });

  it('sorts the candidates when the sort is not the index order', () => {
    const { collection, view } = indexed();
    for (const sort of [{ time: -1, _id: 1 }, { _id: -1, time: -1 }, { level: 1 }, { time: -1, _id: -1, level: 1 }]) {
      expect(examined(collection, () => ids(view.find({ host: 1 }, { sort, limit: 3 })))).toEqual({ result: ids(sortDocuments(view.match({ host: 1 }), sort)).slice(0, 3), examined: 20 });
    }
    expect(examined(collection, () => view.find({ host: { $in: [1, 2] } }, { sort: { time: -1 }, limit: 1 })).examined).toBe(40);
  });

  it('keeps the order true across inserts, updates and deletes', () => {
    const { view } = indexed();
    const newest = () => ids(view.find({ host: 1 }, { sort: { time: -1, _id: -1 }, limit: 2 }));
    const before = newest();
    view.insert(storableDocument({ _id: 100, host: 1, time: 99 }));
    expect(newest()).toEqual([100, before[0]]);
    view.replace(documentKey(100), storableDocument({ _id: 100, host: 2, time: 99 }));
    expect(newest()).toEqual(before);
    view.remove(documentKey(before[0]));
    expect(newest()).toEqual([before[1], ids(sortDocuments(view.match({ host: 1 }), { time: -1, _id: -1 }))[1]]);
  });

  it('keeps the stable order of ties through a long run of writes to one key', () => {
    const { view } = indexed();
    const sort = { time: -1 };
    let next = 1000;
    for (let step = 0; step < 150; step++) {
      const hostOne = view.match({ host: 1 });
      if (step % 3 === 0) view.insert(storableDocument({ _id: next++, host: 1, time: step % 4 }));
      else if (step % 3 === 1) view.replace(documentKey(hostOne[step % hostOne.length]!._id), storableDocument({ _id: hostOne[step % hostOne.length]!._id, host: 1, time: step % 5 }));
      else view.remove(documentKey(hostOne[(step * 7) % hostOne.length]!._id));
      expect(ids(view.find({ host: 1 }, { sort }))).toEqual(ids(sortDocuments(view.match({ host: 1 }), sort)));
    }
  });

  it('reads a transaction through its snapshot, not the committed index order', () => {
    const { store, collection } = indexed();
    const transaction = store.sessions.start('s1', 1n);
    const inside = store.view(collection, transaction);
    inside.insert(storableDocument({ _id: 200, host: 1, time: 98 }));
    store.view(collection, undefined).insert(storableDocument({ _id: 201, host: 1, time: 99 })); // committed after the snapshot
    expect(ids(inside.find({ host: 1 }, { sort: { time: -1 }, limit: 1 }))).toEqual([200]);
    expect(ids(store.view(collection, undefined).find({ host: 1 }, { sort: { time: -1 }, limit: 1 }))).toEqual([201]);
  });
});

describe('exact index lookups', () => {
  const host = (n: number): ObjectId => new ObjectId(n.toString(16).padStart(24, '0'));
  const logs = Array.from({ length: 200 }, (_, i) => ({ _id: i, host: { id: host(i % 10), name: `h${i % 10}` }, tags: [`t${i % 3}`] }));

  it('returns exactly the matching documents without running the filter, and still counts them as examined', () => {
    const { store, collection, view } = setUp(logs);
    store.createIndexes(collection, [{ name: 'host.id_1', key: { 'host.id': 1, time: -1 }, unique: false, sparse: false, options: {} }]);
    const found = examined(collection, () => view.match({ 'host.id': { $in: [host(3), host(7), host(3), host(99)] } }));
    expect(found.examined).toBe(40);
    expect(found.result.map((doc) => doc._id).sort((a, b) => a - b)).toEqual(logs.filter((l) => l._id % 10 === 3 || l._id % 10 === 7).map((l) => l._id));
  });

  it('finds a multikey document once when several of its values are looked up', () => {
    const { store, collection, view } = setUp([
      { _id: 1, tags: ['a', 'b'] },
      { _id: 2, tags: ['b'] },
      { _id: 3, tags: 'c' },
    ]);
    store.createIndexes(collection, [{ name: 'tags_1', key: { tags: 1 }, unique: false, sparse: false, options: {} }]);
    expect(ids(view.match({ tags: { $in: ['a', 'b', 'c'] } }))).toEqual([1, 2, 3]);
    expect(ids(view.match({ tags: ['a', 'b'] }))).toEqual([1]);
  });
});
