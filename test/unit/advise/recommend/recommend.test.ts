import { recommend } from '../../../../src/advise/recommend/recommend';
import type { DataStatistics, RelationStatistics } from '../../../../src/advise/statistics/statistics-types';
import { withDirectiveTypeDefs } from '../../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../../src/gateway/startup/write-model/build-write-model';
import type { FieldWorkload, MutationWorkload, SourceChangeCounts, WorkloadSummary } from '../../../../src/gateway/workload/workload-types';
import { writeSidesOf } from '../../../../src/advise/write-sides';
import type { WriteSides } from '../../../../src/advise/recommend/write-effect';
import { formatAdvice } from '../../../../src/advise/format-advice';

const SDL = /* GraphQL */ `
  type Query { books: [Book!]! @list hosts: [Host!]! @list }
  type Mutation {
    updateAuthor(id: ID!, input: AuthorPatch!): Author! @update
    updatePublisher(id: ID!, input: PublisherPatch!): Publisher! @update
    createBook(input: BookInput!): Book! @create
    updateHost(id: ID!, input: HostPatch!): Host! @update
  }
  input AuthorPatch { name: String born: Int email: String }
  input PublisherPatch { name: String founded: Int }
  input BookInput { title: String! authors: [ID!]! publisher: ID }
  input HostPatch { name: String }
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
/** The write rules before and after each change: the recorded mutations are replayed against both. */
const writeSides = writeSidesOf({ files: [{ file: 'schema.graphql', text: SDL }], resolvers: [], writePlans: {} }) as WriteSides;

function field(entry: Partial<FieldWorkload> & Pick<FieldWorkload, 'field' | 'strategy'>): FieldWorkload {
  return { operations: 0, resolves: 0, roundTrips: 0, documents: 0, bytes: 0, keys: 0, snapshotHits: 0, snapshotMisses: 0, dangling: 0, missing: [], missingOther: { operations: 0, misses: 0 }, selections: [], selectionsOther: 0, ...entry, delivered: entry.delivered ?? entry.documents ?? 0, parentDocuments: entry.parentDocuments ?? entry.resolves ?? 0, soleRoundTrips: entry.soleRoundTrips ?? entry.roundTrips ?? 0 };
}

/** A summary whose queries sent their fields' round trips plus one each (the root), and whose mutations sent theirs. */
function workload({ queries, mutationCount, ...parts }: Partial<WorkloadSummary> & { queries: number; mutationCount: number }): WorkloadSummary {
  const fieldTrips = (parts.fields ?? []).reduce((sum, entry) => sum + entry.roundTrips, 0);
  const mutationTrips = (parts.mutations ?? []).reduce((sum, entry) => sum + entry.roundTrips, 0);
  const timed = { commands: 0, ms: 0, documents: 0 };
  return {
    windows: 1,
    start: new Date(0),
    end: new Date(1000),
    fields: [],
    mutations: [],
    commands: { operations: 0, reads: timed, singleWrites: timed, multiWrites: timed, others: timed },
    ...parts,
    operations: { query: { count: queries, roundTrips: queries + fieldTrips, documents: 0, bytes: 0 }, mutation: { count: mutationCount, roundTrips: mutationTrips, documents: 0, bytes: 0 } },
  };
}

/** A Mutation field's recorded runs, all standing and in a transaction. */
function mutation(entry: Pick<MutationWorkload, 'field' | 'runs' | 'roundTrips' | 'documentsModified' | 'fanOut'> & Partial<MutationWorkload>): MutationWorkload {
  return { failed: 0, attempts: entry.runs, atomicRuns: entry.runs, changes: [], changesOther: 0, untrackedRuns: 0, ...entry };
}

/** `documents` changes of `fields` of `typeName` documents, sampled as `sample` (id key → changes). */
function changes(typeName: string, fields: string[], documents: number, sample: Record<string, number>): SourceChangeCounts {
  return { typeName, fields, documents, sample: Object.entries(sample).map(([id, count]) => ({ id, changes: count })) };
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

  describe('pricing a widening by the writes that change what it would copy', () => {
    // Two authors sampled among those whose `born` changed: 3 and 5 books copy them, 10 changes each.
    const statistics = {
      collections: {},
      relations: {},
      writtenSources: { 'Book.authors': { holders: [{ collection: 'books', prefix: '', keyPath: 'authors.id', copies: { a1: 3, a2: 5 } }], skipped: [] } },
    } as unknown as DataStatistics;
    const recorded = (misses: number, bornChanges: number, commands?: WorkloadSummary['commands']) =>
      workload({
        queries: 1000,
        mutationCount: 100,
        fields: [field({ field: 'Book.authors', strategy: 'snapshot', operations: 1000, roundTrips: misses, snapshotMisses: misses * 3, missing: [{ fields: ['born'], operations: misses, misses: misses * 3 }] })],
        mutations: [
          // 40 renames rewrite the copies already (update, fan-out, commit); `born` changes rewrite none (update, commit).
          mutation({
            field: 'Mutation.updateAuthor',
            runs: 40 + bornChanges,
            roundTrips: 40 * 3 + bornChanges * 2,
            documentsModified: 40 * 5 + bornChanges,
            fanOut: [],
            changes: [changes('Author', ['born'], bornChanges, { a1: bornChanges / 2, a2: bornChanges / 2 }), changes('Author', ['name'], 40, { a3: 40 })],
          }),
          mutation({ field: 'Mutation.createBook', runs: 60 - bornChanges, roundTrips: (60 - bornChanges) * 5, documentsModified: 60 - bornChanges, fanOut: [] }),
        ],
        ...(commands && { commands }),
      });

    it('adds the copies of the sources actually changed, and one command per change, only for changes of the new field', () => {
      const authors = advice(recommend({ storageMap, statistics, writeSides, workload: recorded(300, 20) }), 'Book.authors');
      expect(authors).toMatchObject({ kind: 'widen-snapshot', snapshotFields: ['id', 'name', 'born'] });
      // 20 changes of born × 4 copies (weighted mean of 3 and 5) more; the renames already rewrite their copies.
      expect(authors.effect.documentsWrittenPer1000Mutations).toEqual({ before: (200 + 20 + 40) * 10, after: (200 + 20 + 40 + 80) * 10 });
      // Per change of born, one updateMany of books more, and (in a transaction) one lock command: a copied
      // field changes, under the lock createBook takes on the authors it points at. Renames take it either way.
      expect(authors.effect.mutationRoundTripsPer1000Mutations).toEqual({ before: (120 + 40 + 200) * 10, after: (120 + 40 + 200 + 20 + 20) * 10 });
      // Queries: 1,000 roots and 300 joins; mutations 360: 1,660 round trips in 1,100 operations, 260 fewer after.
      expect(authors.effect.net?.roundTripsPer1000Operations).toEqual({ before: 1509.1, after: 1272.7 });
      expect(authors.evidence).toContain('20 change(s) of Author born: about 4 books copies each to rewrite (counted for 2 sampled changed source(s))');
      expect(authors.evidence).toContain('mutations send +40 command(s) over the recorded workload (0 read(s), +40 write(s))');
    });

    it('takes no lock command for the runs recorded outside a transaction', () => {
      const summary = recorded(300, 20);
      const outside = { ...summary, mutations: summary.mutations.map((entry) => ({ ...entry, atomicRuns: 0 })) };
      const authors = advice(recommend({ storageMap, statistics, writeSides, workload: outside }), 'Book.authors');
      expect(authors.evidence).toContain('mutations send +20 command(s) over the recorded workload (0 read(s), +20 write(s))');
    });

    it('rejects a widening whose writes cost more MongoDB time than its reads save, and says why with --verbose', () => {
      // Times as recorded: 0.5 ms a read, 1 ms a single-document write, 0.25 ms a further document.
      const commands = { operations: 1100, reads: { commands: 1000, ms: 500, documents: 3000 }, singleWrites: { commands: 400, ms: 400, documents: 400 }, multiWrites: { commands: 40, ms: 80, documents: 200 }, others: { commands: 100, ms: 50, documents: 0 } };
      const report = recommend({ storageMap, statistics, writeSides, workload: recorded(60, 40, commands) });
      const authors = advice(report, 'Book.authors');
      expect(authors.kind).toBe('keep');
      // Saves 60 reads (30 ms); costs 40 fan-out writes and 40 lock commands (80 ms) and 160 copies (40 ms): 90 ms more in 1,030 ms.
      expect(authors.rejected).toMatchObject({
        kind: 'widen-snapshot',
        change: "add born to the snapshot's fields",
        because: 'on the recorded workload it costs 90 ms of MongoDB commands more than it saves (+8.7% of 1,030); a change must save more than 1% (minNetSavingShare)',
      });
      expect(authors.rejected!.effect.net).toEqual({ roundTripsPer1000Operations: { before: 1236.4, after: 1254.6 }, commandMsPer1000Operations: { before: 936.4, after: 1018.2 }, commandCosts: 'measured' });
      const verbose = formatAdvice(report, 'Advice', { verbose: true });
      expect(verbose).toContain("  rejected: widen-snapshot: add born to the snapshot's fields\n    because: on the recorded workload it costs 90 ms");
      expect(verbose).toContain('MongoDB time per 1,000 operations 936.4 ms → 1,018.2 ms\n');
      expect(formatAdvice(report, 'Advice')).toMatch(/ 1 change\(s\) considered and not given \(--verbose shows them, and why\)\.\n$/);
      expect(formatAdvice(report, 'Advice')).not.toContain('rejected: ');
      expect(formatAdvice({ ...report, fields: [] }, 'Advice')).toBe('Advice\n\n\n0 relation fields.\n');
    });

    it('does not price a change on changes it does not know: runs recorded by an older docjoin, or sets past the cap', () => {
      const recordedBy = (changed: Partial<MutationWorkload>) => {
        const summary = recorded(300, 20);
        return { ...summary, mutations: summary.mutations.map((entry, index) => (index === 0 ? { ...entry, ...changed } : entry)) };
      };
      const older = advice(recommend({ storageMap, statistics, writeSides, workload: recordedBy({ untrackedRuns: 60 }) }), 'Book.authors');
      expect(older.rejected?.because).toBe(
        'its writes could not be priced: 60 run(s) of Mutation.updateAuthor were recorded without the fields they changed (windows from an older docjoin); record the workload again',
      );
      const capped = advice(recommend({ storageMap, statistics, writeSides, workload: recordedBy({ changesOther: 3 }) }), 'Book.authors');
      expect(capped.rejected?.because).toMatch(/^its writes could not be priced: Mutation\.updateAuthor changed more than 64 distinct sets of fields in a window/);
    });

    it('prices each recorded set of changes once, by the first update of the plan that can have made it', () => {
      // A hand-written mutation that updates the author twice: its born changes are priced once, not twice.
      const sides = writeSidesOf({
        files: [{ file: 'schema.graphql', text: SDL.replace('type Mutation {', 'type Mutation { touchAuthor(id: ID!): Author!') }],
        resolvers: [{ Mutation: { touchAuthor: () => null } }],
        writePlans: {
          touchAuthor: [
            { kind: 'updateSource', typeName: 'Author', by: '_id', fields: ['born'] },
            { kind: 'updateSource', typeName: 'Author', by: '_id', fields: ['born', 'email'] },
          ],
        },
      }) as WriteSides;
      const summary = recorded(300, 20);
      const touched = { ...summary, mutations: [mutation({ field: 'Mutation.touchAuthor', runs: 20, roundTrips: 40, documentsModified: 20, fanOut: [], changes: [changes('Author', ['born'], 20, { a1: 10, a2: 10 })] })] };
      const authors = advice(recommend({ storageMap, statistics, writeSides: sides, workload: touched }), 'Book.authors');
      // A fan-out and a lock command per change.
      expect(authors.evidence).toContain('mutations send +40 command(s) over the recorded workload (0 read(s), +40 write(s))');
    });

    it('rejects a change it cannot price: mutations recorded and no write model to replay them with', () => {
      const authors = advice(recommend({ storageMap, statistics, workload: recorded(300, 20) }), 'Book.authors');
      expect(authors.kind).toBe('keep');
      expect(authors.rejected?.because).toBe('its writes could not be priced: no write model to replay the recorded mutations with');
    });
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
    expect([email.kind, email.personalData]).toEqual(['widen-snapshot', { fields: ['email (e-mail address)'], copiedInto: [{ collection: 'books', documents: 12_000 }] }]);
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
        mutations: [
          mutation({
            field: 'Mutation.updateHost',
            runs: 20,
            roundTrips: 60,
            documentsModified: 20_020,
            fanOut: [{ collection: 'hosts', documentsModified: 20 }, { collection: 'logMessages', documentsModified: 20_000 }],
            changes: [changes('Host', ['name'], 20, { h1: 10, h2: 10 })],
          }),
        ],
      }),
      writeSides,
      statistics: { collections: {}, relations: {}, writtenSources: { 'LogMessage.host': { holders: [{ collection: 'logMessages', prefix: '', keyPath: 'host.id', copies: { h1: 1000, h2: 1000 } }], skipped: [] } } } as unknown as DataStatistics,
    });
    const host = advice(report, 'LogMessage.host');
    expect(host.kind).toBe('drop-snapshot');
    // 1,001 documents written per rename before; 1 after, and one command fewer (the fan-out).
    expect(host.effect.documentsWrittenPer1000Mutations).toEqual({ before: 1_001_000, after: 1000 });
    expect(host.effect.mutationRoundTripsPer1000Mutations).toEqual({ before: 3000, after: 2000 });
    // No command times recorded: 1 ms a command, 0.2 ms a further document (110 ms + 4,004 ms before; 50 reads more, 20 writes and 20,000 copies fewer).
    expect(host.effect.net?.commandMsPer1000Operations).toEqual({ before: 58_771.4, after: 2057.1 });
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
        mutations: [mutation({ field: 'Mutation.updateHost', runs: 2, roundTrips: 6, documentsModified: 2002, fanOut: [{ collection: 'hosts', documentsModified: 2 }, { collection: 'logMessages', documentsModified: 2000 }] })],
      }),
    });
    expect(advice(report, 'LogMessage.host').kind).toBe('keep');
    expect(advice(report, 'Author.books')).toMatchObject({ kind: 'keep', antiPatterns: [], effect: { roundTripsPer1000Queries: { before: 0, after: 0 } } });
  });

  it('flags a join a sharded cluster would broadcast: its target sharded by another key than the one it looks up', () => {
    const flags = (shardKeys: Record<string, Record<string, 1 | 'hashed'>>, coordinate: string) => advice(recommend({ storageMap, shardKeys }), coordinate).antiPatterns;
    // Book.publisher finds publishers by _id; Author.books reads books by authors.id.
    expect(flags({ publishers: { name: 1 } }, 'Book.publisher')).toEqual(['broadcast-join']);
    expect(flags({ publishers: { _id: 'hashed' } }, 'Book.publisher')).toEqual([]);
    expect(flags({ books: { _id: 'hashed' } }, 'Author.books')).toEqual(['broadcast-join']);
    expect(flags({ books: { 'authors.id': 1 } }, 'Author.books')).toEqual([]);
    // A snapshot read by default, with no recorded join reads, is not flagged.
    expect(flags({ authors: { name: 1 } }, 'Book.authors')).toEqual([]);
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
      writtenSources: {},
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
    writtenSources: {},
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
        mutationCount: 3,
        fields: [field({ field: 'Book.publisher', strategy: 'join', operations: 100, roundTrips: 100, selections: [{ fields: ['name'], operations: 90 }, { fields: ['books', 'name'], operations: 10 }] })],
        mutations: [
          mutation({ field: 'Mutation.updatePublisher', runs: 3, roundTrips: 6, documentsModified: 3, fanOut: [{ collection: 'publishers', documentsModified: 3 }], changes: [changes('Publisher', ['name'], 2, { p1: 2 }), changes('Publisher', ['founded'], 1, { p2: 1 })] }),
        ],
      }),
      writeSides,
    });
    const publisher = advice(report, 'Book.publisher');
    expect(publisher).toMatchObject({ kind: 'add-snapshot', snapshotFields: ['id', 'name'] });
    expect(publisher.effect.roundTripsPer1000Queries).toEqual({ before: 1000, after: 100 });
    // 2 renames, each copied by 1,000 books / 20 publishers = 50 (the key is not indexed: the average): 100 copies over 3 mutations; the change of `founded` rewrites none.
    expect(publisher.effect.documentsWrittenPer1000Mutations).toEqual({ before: 1000, after: 34_333.3 });
    // Per rename, one fan-out command and one lock command (createBook points at publishers without writing them).
    expect(publisher.effect.mutationRoundTripsPer1000Mutations).toEqual({ before: 2000, after: 3333.3 });
  });

  it('counts no saving for reads with a key that names no document: a join whose every key dangles gets no snapshot, one where some do saves less and says why', () => {
    const report = (keys: number, dangling: number) =>
      advice(
        recommend({
          storageMap,
          statistics,
          workload: workload({ queries: 100, mutationCount: 0, fields: [field({ field: 'Book.publisher', strategy: 'join', operations: 100, resolves: keys, roundTrips: 100, keys, dangling, selections: [{ fields: ['name'], operations: 100 }] })] }),
          writeSides,
        }),
        'Book.publisher',
      );
    const why = (dangling: number, keys: number) => `${dangling.toLocaleString('en')} of ${keys.toLocaleString('en')} keys the join read named no Publisher document: their copies could hold only the key, so a read with one of them would still join (counted as saving nothing)`;
    const all = report(1000, 1000);
    expect([all.kind, all.rejected?.kind, all.rejected?.effect.roundTripsPer1000Queries]).toEqual(['keep', 'add-snapshot', { before: 1000, after: 1000 }]);
    expect(all.rejected?.evidence).toContain(why(1000, 1000));
    // One key per read, a quarter dangling: three reads in four save their join.
    const onePerRead = report(100, 25);
    expect([onePerRead.kind, onePerRead.effect.roundTripsPer1000Queries]).toEqual(['add-snapshot', { before: 1000, after: 250 }]);
    expect(onePerRead.evidence).toContain(why(25, 100));
    // Ten keys per read, a quarter dangling: a read saves its join only when none of its ten dangles, 0.75^10 of them.
    expect(report(1000, 250).effect.roundTripsPer1000Queries).toEqual({ before: 1000, after: 943.7 });
    expect(report(1000, 0).effect.roundTripsPer1000Queries).toEqual({ before: 1000, after: 0 });
  });

  it('with readsOnly gives a lookup where it would give a snapshot: nothing that changes what is stored', () => {
    const input = {
      storageMap,
      statistics,
      workload: workload({
        queries: 100,
        mutationCount: 0,
        fields: [field({ field: 'Book.publisher', strategy: 'join', operations: 100, resolves: 1000, roundTrips: 100, documents: 200, keys: 1000, selections: [{ fields: ['name'], operations: 100 }] })],
      }),
      writeSides,
      network: { latencyMs: 10, measuredMs: 10, assumed: false, serverVersion: '7.0.12' },
    };
    expect(advice(recommend(input), 'Book.publisher').kind).toBe('add-snapshot');
    const readsOnly = recommend({ ...input, readsOnly: true });
    expect(advice(readsOnly, 'Book.publisher')).toMatchObject({ kind: 'read-by-lookup' });
    expect(new Set(readsOnly.fields.map((field) => field.kind))).toEqual(new Set(['read-by-lookup', 'keep']));
  });

  it('adds no snapshot when its targets are written as often as they are read', () => {
    const report = recommend({
      storageMap,
      statistics,
      workload: workload({
        queries: 10,
        mutationCount: 50,
        fields: [field({ field: 'Book.publisher', strategy: 'join', operations: 10, roundTrips: 10, selections: [{ fields: ['name'], operations: 10 }] })],
        mutations: [mutation({ field: 'Mutation.updatePublisher', runs: 50, roundTrips: 100, documentsModified: 50, fanOut: [{ collection: 'publishers', documentsModified: 50 }], changes: [changes('Publisher', ['name'], 50, { p1: 50 })] })],
      }),
      writeSides,
    });
    const publisher = advice(report, 'Book.publisher');
    expect(publisher.kind).toBe('keep');
    // Saves 10 reads (10 ms, costs assumed); costs 50 fan-out and 50 lock commands (100 ms) and 2,500 copies (500 ms).
    expect(publisher.rejected?.because).toBe(
      'on the recorded workload it costs 590 ms of MongoDB commands (assumed costs: 1 ms a command, 0.2 ms a further document) more than it saves (+453.8% of 130); a change must save more than 1% (minNetSavingShare)',
    );
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
