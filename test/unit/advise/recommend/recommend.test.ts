import { recommend } from '../../../../src/advise/recommend/recommend';
import type { DataStatistics, RelationStatistics } from '../../../../src/advise/statistics/statistics-types';
import { withDirectiveTypeDefs } from '../../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../../src/gateway/startup/write-model/build-write-model';
import type { FieldWorkload, WorkloadSummary } from '../../../../src/gateway/workload/workload-types';

const SDL = /* GraphQL */ `
  type Query { books: [Book!]! @list hosts: [Host!]! @list }
  type Book @collection(name: "books") {
    id: ID!
    title: String!
    authors: [Author!]! @snapshot(path: "authors", fields: ["id", "name"]) @join(localField: "authors.id") @read(strategy: SNAPSHOT)
    notes: [Note!]! @embedded
    publisher: Publisher @join(localField: "publisherId")
  }
  type Publisher @collection(name: "publishers") { id: ID! name: String! founded: Int! books: [Book!]! @join(localField: "_id", foreignField: "publisherId", sort: "title") }
  type Review @collection(name: "reviews") {
    id: ID!
    stars: Int!
    book: Book @snapshot(path: "book", fields: ["id", "title"]) @join(localField: "book.id") @read(strategy: JOIN)
  }
  type Note { text: String! }
  type Author @collection(name: "authors") {
    id: ID!
    name: String!
    born: Int!
    email: String
    countOfBooks: Int!
    books: [Book!]! @join(localField: "_id", foreignField: "authors.id", sort: "title")
  }
  type Host @collection(name: "hosts") { id: ID! name: String! }
  type LogMessage @collection(name: "logMessages") {
    id: ID!
    message: String!
    host: Host @snapshot(path: "host", fields: ["id", "name"]) @join(localField: "host.id") @read(strategy: SNAPSHOT)
  }
`;
const { storageMap } = buildWriteModelFromSdl(withDirectiveTypeDefs(SDL));

function field(entry: Partial<FieldWorkload> & Pick<FieldWorkload, 'field' | 'strategy'>): FieldWorkload {
  return { operations: 0, resolves: 0, roundTrips: 0, documents: 0, bytes: 0, keys: 0, snapshotHits: 0, snapshotMisses: 0, dangling: 0, missing: [], missingOther: { operations: 0, misses: 0 }, selections: [], selectionsOther: 0, ...entry };
}

function workload({ queries, mutationCount, ...parts }: Partial<WorkloadSummary> & { queries: number; mutationCount: number }): WorkloadSummary {
  const totals = (count: number) => ({ count, roundTrips: 0, documents: 0, bytes: 0 });
  return { windows: 1, start: new Date(0), end: new Date(1000), fields: [], mutations: [], ...parts, operations: { query: totals(queries), mutation: totals(mutationCount) } };
}

const advice = (report: ReturnType<typeof recommend>, coordinate: string) => report.fields.find((entry) => entry.coordinate === coordinate)!;

describe('recommend', () => {
  it('widens a snapshot by exactly the copyable fields reads missed, predicting the round trips saved', () => {
    const report = recommend({
      storageMap,
      workload: workload({
        queries: 1000,
        mutationCount: 0,
        fields: [
          field({
            field: 'Book.authors',
            strategy: 'snapshot',
            operations: 1000,
            roundTrips: 400,
            snapshotHits: 6000,
            snapshotMisses: 1200,
            // 300 operations missed for countOfBooks (copyable), 100 for books (a relation: it cannot be copied).
            missing: [
              { fields: ['books'], operations: 100, misses: 300 },
              { fields: ['countOfBooks'], operations: 300, misses: 900 },
            ],
          }),
        ],
      }),
    });
    const authors = advice(report, 'Book.authors');
    expect(authors).toMatchObject({
      kind: 'widen-snapshot',
      change: "add countOfBooks to the snapshot's fields",
      snapshotFields: ['id', 'name', 'countOfBooks'],
      current: 'snapshot at authors of [id, name] (read by default); join authors.id → authors._id',
    });
    // 400 round trips over 400 missing operations; the 300 the new field covers are saved.
    expect(authors.effect.roundTripsPer1000Queries).toEqual({ before: 400, after: 100 });
    expect(authors.evidence[0]).toBe('300 of 1,000 queries reading Book.authors missed the snapshot for countOfBooks (900 copies fetched by the join)');
  });

  it('predicts the copies a widening adds to the writes: source writes that rewrote no copy, times the sampled fan-in', () => {
    const missing = [{ fields: ['countOfBooks'], operations: 300, misses: 900 }];
    const statistics = { collections: {}, relations: { 'Book.authors': { coordinate: 'Book.authors', snapshots: [{ coordinate: 'Book.authors', collection: 'books', sourceCollection: 'authors', copiesPerSource: { count: 20, p50: 3, p99: 9, max: 9, mean: 4 } }] } as unknown as RelationStatistics }, snapshots: [] } as unknown as DataStatistics;
    const report = recommend({
      storageMap,
      statistics,
      workload: workload({
        queries: 1000,
        mutationCount: 100,
        fields: [field({ field: 'Book.authors', strategy: 'snapshot', operations: 1000, roundTrips: 300, snapshotMisses: 900, missing })],
        mutations: [
          // Each new book counts for 2 authors, and rewrites none of their copies today (its 50 books are the new ones).
          { field: 'Mutation.addBook', runs: 50, failed: 0, attempts: 50, roundTrips: 150, documentsModified: 150, fanOut: [{ collection: 'authors', documentsModified: 100 }, { collection: 'books', documentsModified: 50 }] },
          // A rename already rewrites the copies: copying countOfBooks too adds nothing to it.
          { field: 'Mutation.renameAuthor', runs: 50, failed: 0, attempts: 50, roundTrips: 100, documentsModified: 250, fanOut: [{ collection: 'authors', documentsModified: 50 }, { collection: 'books', documentsModified: 200 }] },
        ],
      }),
    });
    const authors = advice(report, 'Book.authors');
    expect(authors.kind).toBe('widen-snapshot');
    // 400 documents per 100 mutations before; 100 author writes × 4 copies, less the 50 books the new
    // books' writes already count; the renames already rewrite 200 copies of 50 authors: none more.
    expect(authors.effect.documentsWrittenPer1000Mutations).toEqual({ before: 4000, after: 7500 });
    expect(authors.evidence).toContain('100 mutation(s) wrote 150 authors document(s), each copied by about 4 books document(s): about 350 copies more to rewrite if they change countOfBooks');
  });

  it('says when a widening copies fields that look like personal data, and into how many documents; not otherwise', () => {
    const widening = (fields: string[]) =>
      advice(
        recommend({
          storageMap,
          statistics: { collections: { books: { estimatedCount: 12_000 } }, relations: {}, snapshots: [] } as unknown as DataStatistics,
          workload: workload({ queries: 100, mutationCount: 0, fields: [field({ field: 'Book.authors', strategy: 'snapshot', operations: 100, roundTrips: 50, snapshotMisses: 80, missing: [{ fields, operations: 60, misses: 80 }] })] }),
        }),
        'Book.authors',
      );
    const email = widening(['email']);
    expect([email.kind, email.personalData]).toEqual(['widen-snapshot', { fields: ['email (e-mail address)'], copiedInto: 'books', documents: 12_000 }]);
    const counter = widening(['countOfBooks']);
    expect([counter.kind, counter.personalData]).toEqual(['widen-snapshot', undefined]);
  });

  it('does not widen a snapshot for fields it already declares (copies a backfill has not reached yet)', () => {
    const report = recommend({
      storageMap,
      workload: workload({
        queries: 100,
        mutationCount: 0,
        fields: [field({ field: 'Book.authors', strategy: 'snapshot', operations: 100, roundTrips: 50, snapshotMisses: 80, missing: [{ fields: ['name'], operations: 50, misses: 80 }] })],
      }),
    });
    expect(advice(report, 'Book.authors').kind).toBe('keep');
  });

  it('drops a snapshot whose copies cost far more writes than the round trips they save, with the write amplification', () => {
    const report = recommend({
      storageMap,
      workload: workload({
        queries: 50,
        mutationCount: 20,
        fields: [field({ field: 'LogMessage.host', strategy: 'snapshot', operations: 50, snapshotHits: 5000 })],
        mutations: [{ field: 'Mutation.renameHost', runs: 20, failed: 0, attempts: 20, roundTrips: 60, documentsModified: 20_020, fanOut: [{ collection: 'hosts', documentsModified: 20 }, { collection: 'logMessages', documentsModified: 20_000 }] }],
      }),
    });
    const host = advice(report, 'LogMessage.host');
    expect(host.kind).toBe('drop-snapshot');
    // 1,001 documents written per rename before; 1 after.
    expect(host.effect.documentsWrittenPer1000Mutations).toEqual({ before: 1_001_000, after: 1000 });
    // Each of the 50 queries the copy answered alone needs the join's round trip instead.
    expect(host.effect.roundTripsPer1000Queries).toEqual({ before: 0, after: 1000 });
    expect(host.evidence[0]).toBe('20 mutation(s) rewrote 20,000 logMessages copies of hosts documents (1,000 per mutation)');
  });

  it('keeps a snapshot whose reads outnumber the copies written, and a field nothing was recorded for', () => {
    const report = recommend({
      storageMap,
      workload: workload({
        queries: 10_000,
        mutationCount: 2,
        fields: [field({ field: 'LogMessage.host', strategy: 'snapshot', operations: 10_000, snapshotHits: 90_000 })],
        mutations: [{ field: 'Mutation.renameHost', runs: 2, failed: 0, attempts: 2, roundTrips: 6, documentsModified: 2002, fanOut: [{ collection: 'hosts', documentsModified: 2 }, { collection: 'logMessages', documentsModified: 2000 }] }],
      }),
    });
    expect(advice(report, 'LogMessage.host').kind).toBe('keep');
    expect(advice(report, 'Author.books')).toMatchObject({ kind: 'keep', antiPatterns: [], effect: { roundTripsPer1000Queries: { before: 0, after: 0 } } });
  });

  it('flags an unbounded embedded array and bounds it, or stops embedding it when it is very long', () => {
    const notes = (max: number): RelationStatistics => ({
      coordinate: 'Book.notes',
      collection: 'books',
      array: { path: 'notes', holds: 'embedded', limit: undefined, lengths: { count: 10, p50: max / 2, p99: max, max, mean: max / 2 }, growth: undefined },
      reverseJoin: undefined,
      snapshots: [],
      skipped: [],
    });
    const statistics = (max: number): DataStatistics => ({
      settings: { sampleSize: 1000, keySampleSize: 200, nearLimitBytes: 8 * 1024 * 1024, fullScan: false },
      collections: { books: { collection: 'books', exists: true, estimatedCount: 10, sampled: 10, documentBytes: { count: 10, p50: 5000, p99: 10_100, max: 10_100, mean: 5050 }, nearLimit: { thresholdBytes: 8 * 1024 * 1024, documents: 0, share: 0 } } },
      relations: { 'Book.notes': notes(max) },
    });
    const bounded = advice(recommend({ storageMap, statistics: statistics(200) }), 'Book.notes');
    expect(bounded).toMatchObject({ kind: 'bound-array', suggestedLimit: 20, antiPatterns: ['unbounded-array'] });
    // The largest document holds 5,100 bytes and 100 entries more than the median one: 51 bytes an entry; 180 entries fewer.
    expect(bounded.effect.largestDocumentBytes).toEqual({ before: 10_100, after: 920 });
    expect(advice(recommend({ storageMap, statistics: statistics(2000) }), 'Book.notes').kind).toBe('stop-embedding');
    expect(advice(recommend({ storageMap, statistics: statistics(50) }), 'Book.notes')).toMatchObject({ kind: 'keep', antiPatterns: [] });
  });
});

describe('recommend, from the selections of join reads', () => {
  const collection = (name: string, estimatedCount: number) => ({ collection: name, exists: true, estimatedCount, sampled: estimatedCount, documentBytes: undefined, nearLimit: { thresholdBytes: 8 * 1024 * 1024, documents: 0, share: 0 } });
  const statistics: DataStatistics = {
    settings: { sampleSize: 1000, keySampleSize: 200, nearLimitBytes: 8 * 1024 * 1024, fullScan: false },
    collections: { books: collection('books', 1000), publishers: collection('publishers', 20), reviews: collection('reviews', 500) },
    relations: {},
  };

  it('switches a join to the snapshot it declares when most reads select only copied fields', () => {
    const report = recommend({
      storageMap,
      statistics,
      workload: workload({
        queries: 100,
        mutationCount: 0,
        fields: [field({ field: 'Review.book', strategy: 'join', operations: 80, roundTrips: 80, selections: [{ fields: ['title'], operations: 60 }, { fields: ['pages', 'title'], operations: 20 }] })],
      }),
    });
    const book = advice(report, 'Review.book');
    expect(book).toMatchObject({ kind: 'switch-default', change: 'read Review.book from its snapshot by default (@read(strategy: SNAPSHOT))' });
    // 60 of the 80 joins fit the copy: 600 of the 800 round trips per 1,000 queries go.
    expect(book.effect.roundTripsPer1000Queries).toEqual({ before: 800, after: 200 });
  });

  it('adds a snapshot to a forward join read far more than its targets are written, with the copies it would cost', () => {
    const report = recommend({
      storageMap,
      statistics,
      workload: workload({
        queries: 100,
        mutationCount: 2,
        fields: [field({ field: 'Book.publisher', strategy: 'join', operations: 100, roundTrips: 100, selections: [{ fields: ['name'], operations: 90 }, { fields: ['books', 'name'], operations: 10 }] })],
        mutations: [{ field: 'Mutation.renamePublisher', runs: 2, failed: 0, attempts: 2, roundTrips: 2, documentsModified: 2, fanOut: [{ collection: 'publishers', documentsModified: 2 }] }],
      }),
    });
    const publisher = advice(report, 'Book.publisher');
    expect(publisher).toMatchObject({ kind: 'add-snapshot', snapshotFields: ['id', 'name'] });
    expect(publisher.effect.roundTripsPer1000Queries).toEqual({ before: 1000, after: 100 });
    // 2 publishers renamed, each copied by 1,000 books / 20 publishers = 50: 100 copies over 2 mutations.
    expect(publisher.effect.documentsWrittenPer1000Mutations).toEqual({ before: 1000, after: 51_000 });
  });

  it('adds no snapshot when its targets are written as often as they are read', () => {
    const report = recommend({
      storageMap,
      statistics,
      workload: workload({
        queries: 10,
        mutationCount: 50,
        fields: [field({ field: 'Book.publisher', strategy: 'join', operations: 10, roundTrips: 10, selections: [{ fields: ['name'], operations: 10 }] })],
        mutations: [{ field: 'Mutation.renamePublisher', runs: 50, failed: 0, attempts: 50, roundTrips: 50, documentsModified: 50, fanOut: [{ collection: 'publishers', documentsModified: 50 }] }],
      }),
    });
    expect(advice(report, 'Book.publisher').kind).toBe('keep');
  });
});

describe('recommend, on a snapshot inside an embedded array', () => {
  const ORDERS = /* GraphQL */ `
    type Query { orders: [Order!]! @list }
    type Order @collection(name: "orders") { id: ID! lines: [OrderLine!]! @embedded }
    type OrderLine { quantity: Int! product: Product @snapshot(path: "product", fields: ["id", "name"]) @join(localField: "product.id") @read(strategy: SNAPSHOT) }
    type Product @collection(name: "products") { id: ID! name: String! price: Float! }
  `;
  const orders = buildWriteModelFromSdl(withDirectiveTypeDefs(ORDERS)).storageMap;

  it('widens OrderLine.product when reads miss it for price, its copies counted in the collection that embeds it', () => {
    const report = recommend({
      storageMap: orders,
      workload: workload({
        queries: 31,
        mutationCount: 0,
        fields: [field({ field: 'OrderLine.product', strategy: 'snapshot', operations: 31, roundTrips: 31, snapshotMisses: 62, missing: [{ fields: ['price'], operations: 31, misses: 62 }] })],
      }),
    });
    expect(advice(report, 'OrderLine.product')).toMatchObject({
      kind: 'widen-snapshot',
      change: "add price to the snapshot's fields",
      snapshotFields: ['id', 'name', 'price'],
      effect: { roundTripsPer1000Queries: { before: 1000, after: 0 } },
    });
  });
});
