import { ObjectId } from 'bson';
import { buildStorageMap } from '../../../../src/gateway/storage-map/build-storage-map';
import { buildWriteModel } from '../../../../src/gateway/writes/build-write-model';
import { planSnapshotFanOut } from '../../../../src/gateway/writes/fan-out-planner';
import { fillSnapshot, forwardReferences, planInsertDerived, withInitialDerivedValues } from '../../../../src/gateway/writes/insert-planner';
import { planReferenceChange } from '../../../../src/gateway/writes/reference-planner';
import { groupByCollection } from '../../../../src/gateway/writes/write-steps';
import { demoSchema } from '../support/demo-schema';

const schema = demoSchema();
const model = buildWriteModel(schema, buildStorageMap(schema));
const id = (n: number) => new ObjectId(n.toString(16).padStart(24, '0'));

describe('snapshot fan-out', () => {
  it('renaming an author: one updateMany with arrayFilters on books', () => {
    expect(planSnapshotFanOut(model, 'Author', id(1), { firstName: 'Ada', lastName: 'L', name: 'Ada L' })).toEqual([
      { collection: 'books', statement: { filter: { 'authors.id': id(1) }, update: { $set: { 'authors.$[e0].name': 'Ada L' } }, arrayFilters: [{ 'e0.id': id(1) }], multi: true } },
    ]);
  });

  it('a field no snapshot copies fans out nowhere', () => {
    expect(planSnapshotFanOut(model, 'Author', id(1), { firstName: 'Ada' })).toEqual([]);
    expect(planSnapshotFanOut(model, 'Stock', id(1), { open: 1 })).toEqual([]);
  });

  it('renaming a host: the copies inside embedded log messages, then every message (a dotted $set)', () => {
    expect(groupByCollection(planSnapshotFanOut(model, 'Host', id(2), { name: 'h', ipaddr: '10.0.0.1' }))).toEqual([
      {
        kind: 'update',
        collection: 'hosts',
        statements: [{ filter: { 'recentLogs.host.id': id(2) }, update: { $set: { 'recentLogs.$[e0].host.name': 'h', 'recentLogs.$[e0].host.ipaddr': '10.0.0.1' } }, arrayFilters: [{ 'e0.host.id': id(2) }], multi: true }],
      },
      { kind: 'update', collection: 'logMessages', statements: [{ filter: { 'host.id': id(2) }, update: { $set: { 'host.name': 'h', 'host.ipaddr': '10.0.0.1' } }, multi: true }] },
    ]);
  });
});

describe('inserts', () => {
  it('a comment: one statement on its post pushes the copy ($each/$sort/$slice from the @join) and counts it, guarded against a repeat', () => {
    const comment = { _id: id(10), postId: id(3), author: 'A', comment: 'B', createdAt: new Date(0) };
    expect(forwardReferences(model, 'Comment', comment)).toEqual([{ coordinate: 'Comment.post', collection: 'posts', keys: [id(3)] }]);
    expect(planInsertDerived(model, 'Comment', 'comments', comment)).toEqual([
      {
        collection: 'posts',
        statement: {
          filter: { _id: id(3), 'recentComments._id': { $ne: id(10) } },
          update: { $push: { recentComments: { $each: [comment], $sort: { createdAt: -1, _id: -1 }, $slice: 3 } }, $inc: { commentCount: 1 } },
          multi: false,
        },
      },
    ]);
  });

  it('a book: its authors snapshot is filled from the sources; each author gains the id (sorted) and a count', () => {
    const book = { _id: id(20), name: 'N', publisherId: id(5), authors: [{ id: id(6) }, { id: id(7) }] };
    const references = forwardReferences(model, 'Book', book);
    expect(references.map((reference) => [reference.coordinate, reference.collection, reference.keys])).toEqual([
      ['Book.publisher', 'publishers', [id(5)]],
      ['Book.authors', 'authors', [id(6), id(7)]],
    ]);
    const sources = new Map([
      ['o:' + id(6).toHexString(), { _id: id(6), name: 'Six', thumbnailUrl: 's.png' }],
      ['o:' + id(7).toHexString(), { _id: id(7), name: 'Seven', thumbnailUrl: 'v.png' }],
    ]);
    expect(fillSnapshot(book, references[1]!, sources).authors).toEqual([
      { id: id(6), name: 'Six', thumbnailUrl: 's.png' },
      { id: id(7), name: 'Seven', thumbnailUrl: 'v.png' },
    ]);
    expect(planInsertDerived(model, 'Book', 'books', book)).toEqual(
      [6, 7].map((n) => ({
        collection: 'authors',
        statement: { filter: { _id: id(n), bookIds: { $ne: id(20) } }, update: { $push: { bookIds: { $each: [id(20)], $sort: 1 } }, $inc: { countOfBooks: 1 } }, multi: false },
      })),
    );
  });

  it('a new author starts with true derived values', () => {
    expect(withInitialDerivedValues(model, 'authors', { _id: id(1), name: 'A' })).toEqual({ countOfBooks: 0, bookIds: [], _id: id(1), name: 'A' });
  });
});

describe('two-way references', () => {
  it('reassigning a task pulls it from the old owner and pushes it onto the new one', () => {
    expect(planReferenceChange(model, 'Task.owner', id(30), [id(1)], [id(2)])).toEqual([
      { collection: 'people', statement: { filter: { _id: id(1), taskIds: id(30) }, update: { $pull: { taskIds: id(30) } }, multi: false } },
      { collection: 'people', statement: { filter: { _id: id(2), taskIds: { $ne: id(30) } }, update: { $push: { taskIds: { $each: [id(30)], $sort: 1 } } }, multi: false } },
    ]);
  });

  it('reassigning to the same owner changes nothing', () => {
    expect(planReferenceChange(model, 'Task.owner', id(30), [id(1)], [id(1)])).toEqual([]);
  });
});
