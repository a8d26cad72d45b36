import { recommend } from '../../../../src/advise/recommend/recommend';
import type { NetworkCosts } from '../../../../src/advise/recommend/lookup-advice';
import { withDirectiveTypeDefs } from '../../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../../src/gateway/startup/write-model/build-write-model';
import type { FieldWorkload, WorkloadSummary } from '../../../../src/gateway/workload/workload-types';

const SDL = /* GraphQL */ `
  type Query { books: [Book!]! @list authors: [Author!]! @list }
  type Book @collection(name: "books") { id: ID! title: String! publisher: Publisher @join(localField: "publisherId") }
  type Publisher @collection(name: "publishers") { id: ID! name: String! }
  type Author @collection(name: "authors") {
    id: ID!
    name: String!
    books: [Book!]! @join(localField: "_id", foreignField: "authorId", sort: "title")
    shelf(first: Int = 10, after: String): BookConnection! @join(localField: "_id", foreignField: "shelfId", sort: "title")
  }
  type BookConnection { edges: [BookEdge!]! pageInfo: PageInfo! }
  type BookEdge { cursor: String! node: Book! }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
`;
const { storageMap } = buildWriteModelFromSdl(withDirectiveTypeDefs(SDL));

function join(entry: Partial<FieldWorkload> & Pick<FieldWorkload, 'field'>): FieldWorkload {
  return { strategy: 'join', operations: 0, resolves: 0, roundTrips: 0, documents: 0, bytes: 0, keys: 0, snapshotHits: 0, snapshotMisses: 0, dangling: 0, missing: [], missingOther: { operations: 0, misses: 0 }, selections: [], selectionsOther: 0, ...entry, delivered: entry.delivered ?? entry.documents ?? 0, parentDocuments: entry.parentDocuments ?? entry.resolves ?? 0, soleRoundTrips: entry.soleRoundTrips ?? entry.roundTrips ?? 0 };
}

/** 100 queries: books with their publishers (50 books a page naming 5 publishers), authors with their books; reads timed at 2 ms and 0.01 ms a document beyond the round trip. */
function workload(): WorkloadSummary {
  const fields = [
    join({ field: 'Book.publisher', operations: 100, resolves: 5000, roundTrips: 100, documents: 500, keys: 5000 }),
    join({ field: 'Author.books', operations: 100, resolves: 1000, roundTrips: 100, documents: 3000, keys: 1000 }),
  ];
  return summaryOf(fields, { commands: 300, documents: 9500 });
}

/** 100 queries reading `fields`, their `reads` timed at 2 ms a command and 0.01 ms a document. */
function summaryOf(fields: FieldWorkload[], reads: { commands: number; documents: number }): WorkloadSummary {
  const none = { commands: 0, ms: 0, documents: 0 };
  return {
    windows: 1,
    start: new Date(0),
    end: new Date(1000),
    fields,
    mutations: [],
    commands: { operations: 100, reads: { ...reads, ms: reads.commands * 2 + 0.01 * reads.documents }, singleWrites: none, multiWrites: none, others: none },
    operations: { query: { count: 100, roundTrips: reads.commands, documents: reads.documents, bytes: 0 }, mutation: { count: 0, roundTrips: 0, documents: 0, bytes: 0 } },
  };
}

const network = (latencyMs: number, more: Partial<NetworkCosts> = {}): NetworkCosts => ({ latencyMs, measuredMs: 2, assumed: latencyMs !== 2, serverVersion: '7.0.12', ...more });
const adviceOf = (coordinate: string, options: Parameters<typeof recommend>[0]) => recommend(options).fields.find((field) => field.coordinate === coordinate)!;

/** The schema with `Publisher.books` (its first `first` books), and the workload with that join read for 5,000 publishers, `perPublisher` books each. */
function withPublisherBooks(first: number, perPublisher: number): { storageMap: typeof storageMap; workload: WorkloadSummary } {
  const summary = workload();
  const books = join({ field: 'Publisher.books', operations: 100, resolves: 5000, roundTrips: 100, documents: 5000 * perPublisher, keys: 5000 });
  const publisher = 'type Publisher @collection(name: "publishers") { id: ID! name: String! }';
  const withBooks = `type Publisher @collection(name: "publishers") { id: ID! name: String! books(first: Int = ${first}): [Book!]! @join(localField: "_id", foreignField: "publisherId", sort: "title") }`;
  return { storageMap: buildWriteModelFromSdl(withDirectiveTypeDefs(SDL.replace(publisher, withBooks))).storageMap, workload: { ...summary, fields: [...summary.fields, books] } };
}

describe('reading a join by lookup, priced on the round trips it saves and the copies it adds', () => {
  it('at 10 ms a round trip, a reverse join (no copies) and a by-key join that repeats few publishers both pay, in MongoDB time and in work under load', () => {
    const books = adviceOf('Author.books', { storageMap, workload: workload(), network: network(10) });
    expect(books).toMatchObject({ kind: 'read-by-lookup', change: expect.stringContaining('@read(strategy: LOOKUP)') });
    expect(books.effect.roundTripsPer1000Queries).toEqual({ before: 1000, after: 0 });
    // The workload's 300 reads took 695 ms at 2 ms a round trip; at 10 ms, 3,095. The lookup saves 100 round trips of
    // 10 ms and their commands' own work (assumed without a probe: 0.5 ms each), and MongoDB joins 1,000 parents at 0.02 ms (20 ms).
    expect(books.effect.net).toEqual({ roundTripsPer1000Operations: { before: 3000, after: 2000 }, commandMsPer1000Operations: { before: 30950, after: 20650 }, commandCosts: 'measured' });
    expect(books.evidence).toEqual([
      '100 queries joined Author.books in 100 round trip(s), at 10 ms a round trip (--latency-ms; measured: 2 ms) and 0.5 ms a command does beyond it (assumed): 1,050 ms saved',
      "MongoDB joins each of the 1,000 parent document(s) the join resolved on, at 0.02 ms each (a copy at the recorded reads' time per document, a parent assumed): 20 ms",
      "a reverse join's children each hold one parent's key: a lookup sends the 3,000 document(s) the join read, no more",
    ]);
    const publisher = adviceOf('Book.publisher', { storageMap, workload: workload(), network: network(10) });
    expect(publisher.kind).toBe('read-by-lookup');
    // 5,000 keys for 500 publishers: 4,500 more documents at 0.01 ms each (45 ms) and 5,000 parents at 0.02 ms (100 ms) against 1,050 ms saved.
    expect(publisher.evidence[2]).toBe(
      'the join read 500 document(s) for the 5,000 key(s) its parent documents hold: a lookup sends 4,500 more (a document several parents share, once per parent), at 0.01 ms each: 45 ms',
    );
    expect(publisher.effect.net?.commandMsPer1000Operations).toEqual({ before: 30950, after: 21900 });
    // Under load the round trips are worth only their commands' own work (assumed without a probe: 0.5 ms each, 50 ms), against the copies' 45 ms.
    expect(publisher.evidence[3]).toBe(
      "under load, where requests wait on CPU rather than on round trips, the copies (each sent and decoded again) and what they carry are 45 ms of work; the round trips' commands did 50 ms beyond the network (0.5 ms each, assumed)",
    );
  });

  it('prices a single field joined by another key than _id as a join by key: a target several parents share is sent once per parent', () => {
    const byCode = buildWriteModelFromSdl(withDirectiveTypeDefs(SDL.replace('publisher: Publisher @join(localField: "publisherId")', 'publisher: Publisher @join(localField: "publisherCode", foreignField: "code")').replace('type Publisher @collection(name: "publishers") { id: ID! name: String! }', 'type Publisher @collection(name: "publishers") { id: ID! code: String! name: String! }'))).storageMap;
    const publisher = adviceOf('Book.publisher', { storageMap: byCode, workload: workload(), network: network(10) });
    expect(publisher.evidence[2]).toBe(
      'the join read 500 document(s) for the 5,000 key(s) its parent documents hold: a lookup sends 4,500 more (a document several parents share, once per parent), at 0.01 ms each: 45 ms',
    );
    expect(publisher.current).toBe('join publisherCode → publishers.code (read by default)');
  });

  it('says a join already read by lookup is read so', () => {
    const byLookup = buildWriteModelFromSdl(withDirectiveTypeDefs(SDL.replace('@join(localField: "publisherId")', '@join(localField: "publisherId") @read(strategy: LOOKUP)'))).storageMap;
    expect(adviceOf('Book.publisher', { storageMap: byLookup, workload: workload(), network: network(10) }).current).toBe("join publisherId → publishers._id (read by default, by $lookup inside its parent's command)");
  });

  it('sends no copies for a reverse join whose parents were met several times: its lookup runs once per parent document of its parents\' command', () => {
    const summary = workload();
    const repeated = { ...summary, fields: summary.fields.map((entry) => (entry.field === 'Author.books' ? { ...entry, delivered: 4500 } : entry)) };
    const books = adviceOf('Author.books', { storageMap, workload: repeated, network: network(10) });
    expect(books.evidence[2]).toBe("a reverse join's children each hold one parent's key: a lookup sends the 3,000 document(s) the join read, no more");
    expect(books.effect.net?.commandMsPer1000Operations).toEqual({ before: 30950, after: 20650 });
  });

  it('joins a parent several others share once: a lookup runs per parent document of its parents\' command, not per resolve', () => {
    // The 5,000 books' publishers are 500 documents (Book.publisher's join read 500): Publisher.books resolved
    // 5,000 times, once under each book, but a lookup in the publishers' command joins each of the 500 once.
    const { storageMap: withBooks, workload: resolvedApart } = withPublisherBooks(3, 3);
    const shared = { ...resolvedApart, fields: resolvedApart.fields.map((entry) => (entry.field === 'Publisher.books' ? { ...entry, parentDocuments: 500 } : entry)) };
    const apart = adviceOf('Publisher.books', { storageMap: withBooks, workload: resolvedApart, network: network(10) });
    const once = adviceOf('Publisher.books', { storageMap: withBooks, workload: shared, network: network(10) });
    expect(apart.evidence[1]).toBe("MongoDB joins each of the 5,000 parent document(s) the join resolved on, at 0.02 ms each (a copy at the recorded reads' time per document, a parent assumed): 100 ms");
    expect(once.evidence[1]).toBe(
      "MongoDB joins each of the 500 parent document(s) the join resolved on (5,000 resolves: a parent several others share is one document in its parents' command, joined once), at 0.02 ms each (a copy at the recorded reads' time per document, a parent assumed): 10 ms",
    );
    // 4,500 joins fewer at 0.02 ms, over 100 operations: 900 ms less per 1,000.
    expect(apart.effect.net!.commandMsPer1000Operations.after - once.effect.net!.commandMsPer1000Operations.after).toBeCloseTo(900, 6);

    // A by-key join on shared parents: the 5,000 resolves were on 2,500 book documents (each met twice, as a
    // parent shared by two others is), whose 2,500 keys a lookup in the books' command looks up once each:
    // 2,000 copies of the 500 publishers, not 4,500.
    const summary = workload();
    const sharedBooks = { ...summary, fields: summary.fields.map((entry) => (entry.field === 'Book.publisher' ? { ...entry, parentDocuments: 2500 } : entry)) };
    const publisher = adviceOf('Book.publisher', { storageMap, workload: sharedBooks, network: network(10) });
    expect(publisher.evidence[2]).toBe(
      'the join read 500 document(s) for the about 2,500 key(s) its parent documents hold (its 5,000 key(s) over its resolves, per parent document): a lookup sends 2,000 more (a document several parents share, once per parent), at 0.01 ms each: 20 ms',
    );
  });

  it('never joins more parent documents than the join resolved (a window edited by hand may say more)', () => {
    const summary = workload();
    const edited = { ...summary, fields: summary.fields.map((entry) => (entry.field === 'Author.books' ? { ...entry, parentDocuments: 5000 } : entry)) };
    expect(adviceOf('Author.books', { storageMap, workload: edited, network: network(10) }).evidence![1]).toBe(
      "MongoDB joins each of the 1,000 parent document(s) the join resolved on, at 0.02 ms each (a copy at the recorded reads' time per document, a parent assumed): 20 ms",
    );
  });

  it('says where a reverse join\'s children may list several parents, whose lookup sends such a child once for each', () => {
    const listed = SDL.replace('title: String! publisher', 'title: String! authorIds: [ID!]! publisher').replace('foreignField: "authorId"', 'foreignField: "authorIds"');
    const books = adviceOf('Author.books', { storageMap: buildWriteModelFromSdl(withDirectiveTypeDefs(listed)).storageMap, workload: workload(), network: network(10) });
    expect(books.evidence[2]).toBe(
      "Book.authorIds may hold several parents' keys: a lookup sends a child once for each parent of the page that lists it, which the workload does not record; priced at the 3,000 document(s) the join read",
    );
  });

  it('prices parents and copies at what advise timed on the server, a copy by the bytes the join read per document', () => {
    const lookupCosts = { byteMs: 0.0001, parentMs: 0.15, collection: 'books' };
    const summary = workload();
    const fields = summary.fields.map((entry) => (entry.field === 'Book.publisher' ? { ...entry, bytes: 500 * 40 } : entry));
    const publisher = adviceOf('Book.publisher', { storageMap, workload: { ...summary, fields }, network: network(10), lookupCosts });
    // 5,000 parents at 0.15 ms (750 ms) and 4,500 copies of 40 bytes at 0.004 ms (18 ms) against 1,000 ms of round trips and
    // 19 ms of their commands' own work (below) saved: 251 ms, 8.1% of the workload's 3,095.
    const priced = publisher;
    expect(priced.evidence.slice(1, 3)).toEqual([
      "MongoDB joins each of the 5,000 parent document(s) the join resolved on, at 0.15 ms each (as advise timed reads of books; a copy's 40 bytes as the join's replies took): 750 ms",
      'the join read 500 document(s) for the 5,000 key(s) its parent documents hold: a lookup sends 4,500 more (a document several parents share, once per parent), at 0.004 ms each: 18 ms',
    ]);
    expect(priced.effect.net?.commandMsPer1000Operations).toEqual({ before: 30950, after: 28440 });
    // A command's own work, probed: the reads' 2.3167 ms each, less 31.67 documents at 0.004 ms and the 2 ms ping, is 0.19 ms; 100 round trips, 19 ms against the copies' 18 ms.
    expect(priced.evidence[3]).toBe(
      "under load, where requests wait on CPU rather than on round trips, the copies (each sent and decoded again) and what they carry are 18 ms of work; the round trips' commands did 19 ms beyond the network (0.19 ms each, as the recorded reads took beyond the pings and their documents)",
    );
    expect(publisher.kind).toBe('read-by-lookup');
    // The reads' documents are priced at their own size, the queries' reply bytes per document: at 100 bytes (0.01 ms each) they took all the reads' time beyond the pings.
    const larger = { ...summary, fields, operations: { ...summary.operations, query: { ...summary.operations.query, bytes: 9500 * 100 } } };
    expect(adviceOf('Book.publisher', { storageMap, workload: larger, network: network(10), lookupCosts }).rejected!.evidence[3]).toMatch(/the round trips' commands did 0 ms beyond the network \(0 ms each,/);
    // Reads that took no longer than their pings and documents leave the commands no work of their own: any copy outweighs them.
    const quick = { ...summary, fields, commands: { ...summary.commands, reads: { commands: 300, ms: 300 * 2 + 0.004 * 9500, documents: 9500 } } };
    expect(adviceOf('Book.publisher', { storageMap, workload: quick, network: network(10), lookupCosts }).rejected!.because).toBe(
      "under load it adds work: its copies and the lookups they carry take 18 ms, more than the 0 ms its round trips' commands took beyond the network, so throughput would drop where MongoDB's CPU is what limits it (the gateway's own work for the join, which a lookup also saves, is not priced)",
    );
    // A join that read nothing still has its parents priced as probed (no copy to price).
    const empty = summary.fields.map((entry) => (entry.field === 'Author.books' ? { ...entry, documents: 0, keys: 0, bytes: 0 } : entry));
    expect(adviceOf('Author.books', { storageMap, workload: { ...summary, fields: empty }, network: network(10), lookupCosts }).evidence[1]).toBe(
      "MongoDB joins each of the 1,000 parent document(s) the join resolved on, at 0.15 ms each (as advise timed reads of books; a copy's 0 bytes as the join's replies took): 150 ms",
    );
  });

  it('near the database the copies cost more than the round trips save: kept, with the lookup rejected and why', () => {
    const publisher = adviceOf('Book.publisher', { storageMap, workload: workload(), network: network(0.005, { measuredMs: 0.005, assumed: false }) });
    expect(publisher.kind).toBe('keep');
    expect(publisher.rejected).toMatchObject({ kind: 'read-by-lookup' });
    expect(publisher.rejected!.because).toMatch(/^on the recorded workload it costs [\d.,]+ ms of MongoDB commands \(-[\d.]+% of [\d.,]+\); a change must save more than 1% \(minNetSavingShare\)$/);
    expect(publisher.rejected!.evidence[0]).toBe(
      '100 queries joined Book.publisher in 100 round trip(s), at 0.005 ms a round trip to MongoDB (the median of the pings advise sent) and 0.5 ms a command does beyond it (assumed): 50.5 ms saved',
    );
  });

  it('is not considered without a measured network, for a connection, or for a join the workload never read', () => {
    expect(adviceOf('Author.books', { storageMap, workload: workload() }).kind).toBe('keep');
    expect(adviceOf('Author.books', { storageMap, workload: workload() }).rejected).toBeUndefined();
    const shelf = { ...workload(), fields: [join({ field: 'Author.shelf', operations: 100, roundTrips: 100, documents: 100, keys: 100 })] };
    for (const advice of [adviceOf('Author.shelf', { storageMap, workload: shelf, network: network(10) }), adviceOf('Book.publisher', { storageMap, workload: { ...workload(), fields: [] }, network: network(10) })]) {
      expect(advice.kind).toBe('keep');
      expect(advice.rejected).toBeUndefined();
    }
  });

  it('prices the copies with what the lookups advised on their own fields bring, until the advised set holds still', () => {
    // Each of the 50 books a page shows keeps its own publisher copy, and each copy would carry that
    // publisher's books, when Publisher.books is read by lookup too.
    const report = recommend({ ...withPublisherBooks(10, 30), network: network(10) });
    const advice = (coordinate: string) => report.fields.find((field) => field.coordinate === coordinate)!;
    expect(advice('Publisher.books').kind).toBe('read-by-lookup');
    // 4,500 copies, each running Publisher.books again (0.02 ms) and carrying 30 books: 135,000 more documents at 0.01 ms, against 1,000 ms saved.
    expect(advice('Book.publisher').kind).toBe('keep');
    expect(advice('Book.publisher').rejected!.evidence[3]).toBe(
      "each copy runs the lookups advised on Publisher and its elements that the join's reads selected again (1 join(s) per copy), and carries the 30 document(s) they bring: 4,500 more parent(s) joined and 135,000 more document(s), 1,440 ms",
    );
  });

  it('refuses a lookup that saves MongoDB time but whose copies carry more work than its commands did: throughput would drop', () => {
    // The deep query's shape: each book's publisher copy carries 3 of the publisher's books, looked up again per copy.
    const deep = withPublisherBooks(3, 3);
    const publisher = adviceOf('Book.publisher', { ...deep, network: network(10) });
    // MongoDB time: 1,000 ms saved against 100 ms of parents, 45 ms of copies and 225 ms carried (13,500 books at 0.01 ms, 4,500 lookups at 0.02 ms).
    expect(publisher.rejected!.effect.net!.commandMsPer1000Operations.after).toBeLessThan(publisher.rejected!.effect.net!.commandMsPer1000Operations.before);
    // Work: the copies' 45 ms and the 225 ms they carry, against 100 commands' 0.5 ms.
    expect(publisher.kind).toBe('keep');
    expect(publisher.rejected!.because).toBe("under load it adds work: its copies and the lookups they carry take 270 ms, more than the 50 ms its round trips' commands took beyond the network, so throughput would drop where MongoDB's CPU is what limits it (the gateway's own work for the join, which a lookup also saves, is not priced)");
    // A copy carries a lookup only where the join's reads selected its field: read for its name alone, a
    // publisher carries nothing (45 ms of copies against 50); selected by half of them, half (157.5 ms).
    const selecting = (sets: FieldWorkload['selections']) => {
      const fields = deep.workload.fields.map((entry) => (entry.field === 'Book.publisher' ? { ...entry, selections: sets } : entry));
      return adviceOf('Book.publisher', { storageMap: deep.storageMap, workload: { ...deep.workload, fields }, network: network(10), readsOnly: true });
    };
    expect(selecting([{ fields: ['name'], operations: 100 }]).kind).toBe('read-by-lookup');
    expect(selecting([{ fields: ['name'], operations: 50 }, { fields: ['books', 'name'], operations: 50 }]).rejected!.because).toBe(
      "under load it adds work: its copies and the lookups they carry take 157.5 ms, more than the 50 ms its round trips' commands took beyond the network, so throughput would drop where MongoDB's CPU is what limits it (the gateway's own work for the join, which a lookup also saves, is not priced)",
    );
  });

  it('cautions where a given lookup\'s joins, with any copies, take more work than its commands did (the check counts the copies only), and not on a refused one', () => {
    const summary = workload();
    // 3,000 authors a read: 3,000 parents at 0.02 ms (60 ms) against the 100 round trips' 0.5 ms of work each (50 ms).
    const many = { ...summary, fields: summary.fields.map((entry) => (entry.field === 'Author.books' ? { ...entry, resolves: 3000, parentDocuments: 3000, keys: 3000 } : entry)) };
    const books = adviceOf('Author.books', { storageMap, workload: many, network: network(10) });
    expect(books.kind).toBe('read-by-lookup');
    expect(books.evidence.at(-1)).toBe(
      "caution: under load its 3,000 join(s) take 60 ms, more than the 50 ms its round trips' commands did beyond the network. The check counts only the copies, as the join's batch looked those keys up too, but a lookup's join costs MongoDB more than a key in a batch, most of all nested in another lookup. Where MongoDB's CPU is the limit, measure the throughput before adopting it",
    );
    // 1,000 authors (20 ms) against 50 ms: no caution.
    expect(adviceOf('Author.books', { storageMap, workload: workload(), network: network(10) }).evidence.some((line) => line.startsWith('caution:'))).toBe(false);
    // A lookup refused for another reason is not cautioned about: there is nothing to adopt.
    const refused = adviceOf('Author.books', { storageMap, workload: many, network: network(10, { serverVersion: '4.4.29' }) });
    expect(refused.rejected!.because).toMatch(/^MongoDB 4\.4\.29 cannot run/);
    expect(refused.rejected!.evidence.some((line) => line.startsWith('caution:'))).toBe(false);
  });

  it('refuses a lookup on a MongoDB older than 5.0, or one whose version is not known', () => {
    expect(adviceOf('Author.books', { storageMap, workload: workload(), network: network(10, { serverVersion: '4.4.29' }) }).rejected?.because).toBe(
      "MongoDB 4.4.29 cannot run docjoin's lookups ($lookup with both localField and a pipeline needs 5.0 or later)",
    );
    expect(adviceOf('Author.books', { storageMap, workload: workload(), network: network(10, { serverVersion: undefined }) }).rejected?.because).toBe(
      'the server did not tell its version (buildInfo), and a lookup needs MongoDB 5.0 or later',
    );
  });

  it('refuses a lookup into a sharded collection MongoDB cannot look into, or would ask every shard for each parent', () => {
    const old = adviceOf('Author.books', { storageMap, workload: workload(), network: network(10, { serverVersion: '5.0.14' }), shardKeys: { books: { authorId: 1 } } });
    expect(old.rejected?.because).toBe('books is sharded (mongodb.shardKeys), and MongoDB 5.0.14 cannot $lookup into a sharded collection (5.1 and later can)');
    const broadcast = adviceOf('Author.books', { storageMap, workload: workload(), network: network(10), shardKeys: { books: { _id: 'hashed' } } });
    expect(broadcast.rejected?.because).toBe("books is sharded by another key than authorId (mongodb.shardKeys): each parent's $lookup would ask every shard");
    expect(adviceOf('Author.books', { storageMap, workload: workload(), network: network(10), shardKeys: { books: { authorId: 'hashed' } } }).kind).toBe('read-by-lookup');
  });

  it('refuses a reverse join in the elements of an embedded type, and a join in elements no lookup reaches (joined under lookup), and prices a join by key there', () => {
    const { storageMap: embedded } = buildWriteModelFromSdl(
      withDirectiveTypeDefs(/* GraphQL */ `
        type Query { shelves: [Shelf!]! @list }
        type Shelf @collection(name: "shelves") { id: ID! slots: [Slot!]! @embedded box: Box @embedded(path: "meta.box") }
        type Box { book: Book @join(localField: "bookId") }
        type Slot { label: String! book: Book @join(localField: "bookId") reviews: [Review!]! @join(localField: "bookId", foreignField: "bookId", sort: "_id", limit: 3) }
        type Book @collection(name: "books") { id: ID! title: String! }
        type Review @collection(name: "reviews") { id: ID! text: String! }
      `),
    );
    const slots = (): WorkloadSummary => ({
      ...workload(),
      fields: [
        join({ field: 'Shelf.slots', strategy: 'embedded', operations: 100, resolves: 200 }),
        join({ field: 'Slot.book', operations: 100, resolves: 1000, roundTrips: 100, documents: 1000, keys: 1000 }),
        join({ field: 'Slot.reviews', operations: 100, resolves: 1000, roundTrips: 100, documents: 1000, keys: 1000 }),
        join({ field: 'Box.book', operations: 100, resolves: 200, roundTrips: 100, documents: 200, keys: 200 }),
      ],
    });
    expect(adviceOf('Slot.reviews', { storageMap: embedded, workload: slots(), network: network(10) }).rejected?.because).toBe(
      'Slot is only ever an element of an embedded array, where a reverse join stays joined under lookup (its per-parent limit would span every element)',
    );
    expect(adviceOf('Box.book', { storageMap: embedded, workload: slots(), network: network(10) }).rejected?.because).toBe(
      'Box is only ever an element that a lookup cannot reach (below a dotted path, inside another element, or as an interface\'s member): it stays joined',
    );
    const book = adviceOf('Slot.book', { storageMap: embedded, workload: slots(), network: network(10) });
    expect(book.kind).toBe('read-by-lookup');
    // One lookup per shelf for all its slots, and each slot's key handed to it: priced per key.
    expect(book.evidence![1]).toBe(
      "MongoDB joins each of the 200 document(s) holding the 1,000 Slot element(s) the join resolved, and each of their 1,000 key(s) is handed to its element: 1,000 join(s) at 0.02 ms each (a copy at the recorded reads' time per document, a parent assumed): 20 ms",
    );
  });
});

/** The advice at 10 ms a round trip, reads only, on 100 queries reading `fields` in 300 commands of 7,000 documents. */
function advisedAt10Ms(storageMap: ReturnType<typeof buildWriteModelFromSdl>['storageMap'], fields: FieldWorkload[]): (coordinate: string) => ReturnType<typeof adviceOf> {
  const report = recommend({ storageMap, workload: summaryOf(fields, { commands: 300, documents: 7000 }), network: network(10), readsOnly: true });
  return (coordinate) => report.fields.find((entry) => entry.coordinate === coordinate)!;
}

describe('a lookup in the elements of an embedded array', () => {
  it('joins the larger of the documents holding the elements and the keys handed to them', () => {
    const { storageMap } = buildWriteModelFromSdl(
      withDirectiveTypeDefs(/* GraphQL */ `
        type Query { shelves: [Shelf!]! @list }
        type Shelf @collection(name: "shelves") { id: ID! slots: [Slot!]! @embedded }
        type Slot { label: String! book: Book @join(localField: "bookId") }
        type Book @collection(name: "books") { id: ID! title: String! }
      `),
    );
    // 200 shelf resolves on 150 shelf documents, 1,000 slots of which `slotKeys` hold a key.
    const evidenceOf = (slotKeys: number) => {
      const summary = summaryOf(
        [
          join({ field: 'Shelf.slots', strategy: 'embedded', operations: 100, resolves: 200, parentDocuments: 150 }),
          join({ field: 'Slot.book', operations: 100, resolves: 1000, roundTrips: 100, documents: slotKeys, keys: slotKeys }),
        ],
        { commands: 200, documents: 1000 },
      );
      const advice = recommend({ storageMap, workload: summary, network: network(10), readsOnly: true }).fields.find((entry) => entry.coordinate === 'Slot.book')!;
      return (advice.kind === 'read-by-lookup' ? advice.evidence : advice.rejected!.evidence)[1];
    };
    // 100 keys on 150 shelf documents: 150 joins (not 200 shelf resolves, not 1,000 slot resolves).
    expect(evidenceOf(100)).toMatch(/^MongoDB joins each of the 150 document\(s\) holding the 1,000 Slot element\(s\) the join resolved, and each of their 100 key\(s\) is handed to its element: 150 join\(s\) at 0\.02 ms each/);
    // 600 keys: 600 joins (not 1,000 slot resolves).
    expect(evidenceOf(600)).toMatch(/and each of their 600 key\(s\) is handed to its element: 600 join\(s\) at 0\.02 ms each/);
  });

  it('runs again in each lookup copy of a document holding them: priced in the copies of a join into that document', () => {
    // Account.owner by lookup: each account's owner is its own copy of the person, whose holdings' stock
    // lookup runs in it again (plan-projection.ts puts the elements' lookups in every copy's projection).
    const { storageMap } = buildWriteModelFromSdl(
      withDirectiveTypeDefs(/* GraphQL */ `
        type Query { accounts: [Account!]! @list people: [Person!]! @list }
        type Account @collection(name: "accounts") { id: ID! owner: Person @join(localField: "ownerId") }
        type Person @collection(name: "people") { id: ID! name: String! holdings: [Holding!]! @embedded }
        type Holding { numberHeld: Int! stock: Stock! @join(localField: "stockId") }
        type Stock @collection(name: "stocks") { id: ID! symbol: String! }
      `),
    );
    // 100 queries: 50 accounts a page naming 5 owners, each owner holding 3 distinct stocks.
    const advice = advisedAt10Ms(storageMap, [
      // 5,000 accounts name 500 owners (the join read each once per batch): 4,500 copies by lookup.
      join({ field: 'Account.owner', operations: 100, resolves: 5000, roundTrips: 100, documents: 500, keys: 5000 }),
      // The owners' holdings, resolved under each account, on 500 person documents.
      join({ field: 'Person.holdings', strategy: 'embedded', operations: 100, resolves: 5000, parentDocuments: 500 }),
      // 3 holdings a person: 15,000 resolves on 1,500 holding elements, 1,500 stocks read.
      join({ field: 'Holding.stock', operations: 100, resolves: 15000, parentDocuments: 1500, roundTrips: 100, documents: 1500, delivered: 15000, keys: 15000 }),
    ]);
    // Holding.stock pays by lookup on its own: 1,500 keys on 500 people joined at 0.02 ms, against its round trips.
    expect(advice('Holding.stock').kind).toBe('read-by-lookup');
    const owner = advice('Account.owner');
    // Each of the 4,500 owner copies runs its holdings' stock lookup again (3 keys: 13,500 more joins) and
    // carries their 3 stocks (13,500 more documents): under load that outweighs the commands the lookup removes.
    expect(owner.kind).toBe('keep');
    expect(owner.rejected!.evidence).toContain(
      "each copy runs the lookups advised on Person and its elements that the join's reads selected again (3 join(s) per copy), and carries the 3 document(s) they bring: 13,500 more parent(s) joined and 13,500 more document(s), 405 ms",
    );
  });

  // Each lookup copy of the joined type runs the element's stock lookup again: priced (4,500 copies, at least a join
  // at 0.02 ms and a document at 0.01 ms each, over the 50 ms of commands removed), the join is refused under load.
  it.each([
    {
      // Holding has a collection of its own, and Person.holdings is an embedded copy of a join: plan-projection.ts
      // still puts `holdings.stock` in every Person copy's projection.
      copies: 'a document holding them when their type has a collection of its own (an embedded copy of a join)',
      sdl: `type Account @collection(name: "accounts") { id: ID! owner: Person @join(localField: "ownerId") }
        type Person @collection(name: "people") { id: ID! name: String! holdings: [Holding!]! @embedded @join(localField: "holdingIds") @read(strategy: EMBEDDED) }
        type Holding @collection(name: "holdings") { id: ID! numberHeld: Int! stock: Stock! @join(localField: "stockId") }`,
      fields: [
        join({ field: 'Account.owner', operations: 100, resolves: 5000, roundTrips: 100, documents: 500, keys: 5000 }),
        join({ field: 'Person.holdings', strategy: 'embedded', operations: 100, resolves: 5000, parentDocuments: 500 }),
        join({ field: 'Holding.stock', operations: 100, resolves: 15000, parentDocuments: 1500, roundTrips: 100, documents: 1500, delivered: 15000, keys: 15000 }),
      ],
      joined: 'Account.owner',
      carriedOn: 'Person',
    },
    {
      // Holding has no collection: Account.holding reads it from "holdings" by @join(collection:), Person.holdings embeds it.
      copies: 'its type read by a join naming the collection, as well as in copies of the documents embedding it',
      sdl: `type Account @collection(name: "accounts") { id: ID! holding: Holding @join(collection: "holdings", localField: "holdingId") }
        type Person @collection(name: "people") { id: ID! name: String! holdings: [Holding!]! @embedded }
        type Holding { numberHeld: Int! stock: Stock @join(localField: "stockId") }`,
      fields: [
        join({ field: 'Account.holding', operations: 100, resolves: 5000, roundTrips: 100, documents: 500, keys: 5000 }),
        join({ field: 'Person.holdings', strategy: 'embedded', operations: 100, resolves: 500, parentDocuments: 500 }),
        // One stock a holding: 5,000 resolves under accounts (500 holding documents) and 1,500 person elements.
        join({ field: 'Holding.stock', operations: 100, resolves: 6500, parentDocuments: 2000, roundTrips: 100, documents: 1000, delivered: 6500, keys: 6500 }),
      ],
      joined: 'Account.holding',
      carriedOn: 'Holding',
    },
  ])('runs again in each lookup copy of $copies', ({ sdl, fields, joined, carriedOn }) => {
    const { storageMap: holdings } = buildWriteModelFromSdl(
      withDirectiveTypeDefs(`type Query { accounts: [Account!]! @list people: [Person!]! @list }\n${sdl}\ntype Stock @collection(name: "stocks") { id: ID! symbol: String! }`),
    );
    const advice = advisedAt10Ms(holdings, fields);
    expect(advice('Holding.stock').kind).toBe('read-by-lookup');
    expect(advice(joined).kind).toBe('keep');
    expect(advice(joined).rejected?.evidence.some((line) => line.startsWith(`each copy runs the lookups advised on ${carriedOn}`))).toBe(true);
  });
});
