import { ObjectId } from 'bson';
import { buildStorageMap } from '../../../../src/gateway/startup/storage-map/build-storage-map';
import { buildWriteModel, buildWriteModelFromSdl } from '../../../../src/gateway/startup/write-model/build-write-model';
import { planSnapshotFanOut, planSourceUpdate, sourceStatementCount } from '../../../../src/gateway/writes/fan-out-planner';
import { fillSnapshot, forwardReferences, nestedReferences, planInsertDerived, provedByDerivedUpdate, soleUpdateOf } from '../../../../src/gateway/writes/insert-planner';
import { withInitialDerivedValues } from '../../../../src/gateway/writes/initial-derived-values';
import { planReferenceChange } from '../../../../src/gateway/writes/reference-planner';
import { groupByCollection } from '../../../../src/gateway/writes/write-steps';
import { demoSchema, DIRECTIVES_SDL } from '../support/demo-schema';

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

  it('renaming a host: ONE command on the host sets its fields alone where it holds no recentLogs array, or them and the copies inside its recentLogs; then every message (a dotted $set)', () => {
    const plan = planSourceUpdate(model, 'Host', { collection: 'hosts', filter: { _id: id(2) }, sourceId: id(2) }, { name: 'h', ipaddr: '10.0.0.1' }, { name: 'h', ipaddr: '10.0.0.1' });
    // MongoDB refuses $[e0] over a path holding no array: each statement is guarded by whether it does, so exactly one matches.
    expect(plan.source).toEqual({
      collection: 'hosts',
      statements: [
        { filter: { $and: [{ _id: id(2) }, { recentLogs: { $not: { $type: 'array' } } }] }, update: { $set: { name: 'h', ipaddr: '10.0.0.1' } }, multi: false },
        {
          filter: { $and: [{ _id: id(2) }, { recentLogs: { $type: 'array' } }] },
          update: { $set: { name: 'h', ipaddr: '10.0.0.1', 'recentLogs.$[e0].host.name': 'h', 'recentLogs.$[e0].host.ipaddr': '10.0.0.1' } },
          arrayFilters: [{ 'e0.host.id': id(2) }],
          multi: false,
        },
      ],
    });
    expect(sourceStatementCount(model, 'Host', ['name'])).toBe(2);
    expect(sourceStatementCount(model, 'Stock', ['open'])).toBe(1);
    expect(groupByCollection(plan.fanOut)).toEqual([
      { kind: 'update', collection: 'logMessages', statements: [{ filter: { 'host.id': id(2) }, update: { $set: { 'host.name': 'h', 'host.ipaddr': '10.0.0.1' } }, multi: true }] },
    ]);
  });

  it('a source picked by another key than _id has nothing to fold or fan out', () => {
    expect(planSourceUpdate(model, 'Stock', { collection: 'stocks', filter: { symbol: 'ACME' }, sourceId: undefined }, { open: 1 }, { open: 1 })).toEqual({
      source: { collection: 'stocks', statements: [{ filter: { symbol: 'ACME' }, update: { $set: { open: 1 } }, multi: false }] },
      fanOut: [],
    });
  });

  it('a new snapshot needs no new code: its directives alone make the rename fan out to it, and reconcile checks it', () => {
    const sdl = /* GraphQL */ `
      type Query { book: Book }
      type Author @collection(name: "authors") { id: ID! name: String! }
      type Book @collection(name: "books") {
        id: ID!
        name: String!
        authors: [Author!]! @snapshot(path: "authors", fields: ["id", "name"]) @join(localField: "authors.id") @read(strategy: SNAPSHOT)
      }
      type Review @collection(name: "reviews") {
        id: ID!
        stars: Int!
        book: Book @snapshot(path: "book", fields: ["id", "name"]) @join(localField: "book.id") @read(strategy: SNAPSHOT)
      }
    `;
    // The model the gateway's writes and `reconcile` (src/reconcile/cli.ts) both build from SDL.
    const reviewModel = buildWriteModelFromSdl([DIRECTIVES_SDL, sdl]);
    expect(planSnapshotFanOut(reviewModel, 'Book', id(40), { name: 'Renamed' })).toEqual([
      { collection: 'reviews', statement: { filter: { 'book.id': id(40) }, update: { $set: { 'book.name': 'Renamed' } }, multi: true } },
    ]);
    // reconcile walks the same model: Review.book is one of its snapshot checks.
    expect(reviewModel.snapshots.map((location) => location.coordinate).sort()).toEqual(['Book.authors', 'Review.book']);
    expect(reviewModel.snapshots.find((location) => location.coordinate === 'Review.book')).toEqual({
      coordinate: 'Review.book',
      field: 'Review.book',
      required: false,
      collection: 'reviews',
      sourceType: 'Book',
      sourceCollection: 'books',
      segments: [{ path: 'book', isArray: false }],
      key: 'id',
      fields: [{ name: 'name', sourcePath: 'name' }],
      inSourceDocument: false,
    });
  });
});

describe('inserts', () => {
  it('a comment: one statement on its post pushes the copy ($each/$sort/$slice from the @join) and counts it, guarded against a repeat', () => {
    const comment = { _id: id(10), postId: id(3), author: 'A', comment: 'B', createdAt: new Date(0) };
    expect(forwardReferences(model, 'Comment', comment)).toEqual([{ coordinate: 'Comment.post', collection: 'posts', keys: [id(3)], provable: true }]);
    expect(planInsertDerived(model, 'Comment', comment)).toEqual([
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
    expect(planInsertDerived(model, 'Book', book)).toEqual(
      [6, 7].map((n) => ({
        collection: 'authors',
        statement: { filter: { _id: id(n), bookIds: { $ne: id(20) } }, update: { $push: { bookIds: { $each: [id(20)], $sort: 1 } }, $inc: { countOfBooks: 1 } }, multi: false },
      })),
    );
  });

  it('a new author starts with true derived values', () => {
    expect(withInitialDerivedValues(model, 'Author', 'authors', { _id: id(1), name: 'A' })).toEqual({ countOfBooks: 0, bookIds: [], _id: id(1), name: 'A' });
  });
});

describe('references an insert need not read in a transaction (provedByDerivedUpdate)', () => {
  const relation = (writeModel: ReturnType<typeof buildWriteModel>, coordinate: string) => writeModel.storageMap.relations.get(coordinate)!;

  it('Comment.post: the post update alone (push + counter, one statement by _id) proves the post', () => {
    expect(provedByDerivedUpdate(model, relation(model, 'Comment.post'))).toBe(true);
    const steps = groupByCollection(planInsertDerived(model, 'Comment', { _id: id(10), postId: id(3), createdAt: new Date(0) }));
    expect(soleUpdateOf(steps.find((step) => step.collection === 'posts'), id(3))).toBe(true);
    expect(soleUpdateOf(steps.find((step) => step.collection === 'posts'), id(4))).toBe(false);
  });

  it('a snapshot (its fields are read), a list, or a target no derived update touches: read', () => {
    expect(provedByDerivedUpdate(model, relation(model, 'LogMessage.host'))).toBe(false);
    expect(provedByDerivedUpdate(model, relation(model, 'Book.authors'))).toBe(false);
    expect(provedByDerivedUpdate(model, relation(model, 'Book.publisher'))).toBe(false);
  });

  it('another rule writing the target collection by another key: its statement could match nothing, so read', () => {
    const sdl = `
      type Post @collection(name: "posts") {
        id: ID!
        commentCount: Int! @counter(of: "Post.comments")
        replyCount: Int! @counter(of: "Post.replies")
        comments: [Comment!]! @join(collection: "comments", localField: "_id", foreignField: "postId")
        replies: [Comment!]! @join(collection: "comments", localField: "_id", foreignField: "replyToPostId")
      }
      type Comment @collection(name: "comments") {
        id: ID!
        post: Post @join(localField: "postId")
        replyTo: Post @join(localField: "replyToPostId")
      }
    `;
    const twoCounters = buildWriteModelFromSdl([DIRECTIVES_SDL, sdl]);
    expect(provedByDerivedUpdate(twoCounters, relation(twoCounters, 'Comment.post'))).toBe(false);
    expect(provedByDerivedUpdate(twoCounters, relation(twoCounters, 'Comment.replyTo'))).toBe(false);
    const steps = groupByCollection(planInsertDerived(twoCounters, 'Comment', { _id: id(10), postId: id(3), replyToPostId: id(4) }));
    expect(steps).toEqual([{ kind: 'update', collection: 'posts', statements: [expect.anything(), expect.anything()] }]);
    expect(soleUpdateOf(steps[0], id(3))).toBe(false);
  });

  it('a total keyed by another reference writes the target too, so neither is proved; one keyed by the same merges into the proving statement', () => {
    const sdl = `
      scalar Decimal
      type Account @collection(name: "accounts") {
        id: ID!
        sent: [Transfer!]! @join(localField: "_id", foreignField: "fromId")
        received: [Transfer!]! @join(localField: "_id", foreignField: "toId")
        sentCount: Int! @counter(of: "Account.sent")
        sentTotal: Decimal! @total(of: "Account.sent", field: "amount")
        receivedTotal: Decimal! @total(of: "Account.received", field: "amount")
      }
      type Transfer @collection(name: "transfers") {
        id: ID!
        amount: Decimal!
        from: Account @join(localField: "fromId")
        to: Account @join(localField: "toId")
      }
    `;
    const transfers = buildWriteModelFromSdl([DIRECTIVES_SDL, sdl]);
    expect(provedByDerivedUpdate(transfers, relation(transfers, 'Transfer.from'))).toBe(false);
    const sameKey = buildWriteModelFromSdl([DIRECTIVES_SDL, sdl.replace('receivedTotal: Decimal! @total(of: "Account.received", field: "amount")', '')]);
    expect(provedByDerivedUpdate(sameKey, relation(sameKey, 'Transfer.from'))).toBe(true);
    const steps = groupByCollection(planInsertDerived(sameKey, 'Transfer', { _id: id(10), fromId: id(3), toId: id(4), amount: 5 }));
    expect(steps).toEqual([{ kind: 'update', collection: 'accounts', statements: [{ filter: { _id: id(3) }, update: { $inc: { sentCount: 1, sentTotal: 5 } }, multi: false }] }]);
    expect(soleUpdateOf(steps[0], id(3))).toBe(true);
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

describe('references on embedded types', () => {
  it('finds a by-key relation of a type embedded in the document, not one of the copies of another collection\'s documents', () => {
    expect(nestedReferences(model, 'Person')).toEqual([{ coordinate: 'Holding.stock', collection: 'stocks', keyPath: 'holdings.stockId', lists: 1 }]);
    // Post.recentComments holds copies of comments: their Comment.post is checked when a comment is written.
    expect(nestedReferences(model, 'Post')).toEqual([]);
  });
});
