import { ObjectId, type Db } from 'mongodb';
import type { Gateway } from 'docjoin';
import { backfillFixture } from './support/backfill-fixture';

/**
 * A snapshot widened to `year` before its copies were backfilled: the copies that lack it are joined
 * (one batched find per level), the others served as they are, each in its place; while the
 * `docjoin_migrations` marker says the backfill runs, the estimate counts that join.
 */
const SDL = /* GraphQL */ `
  type Query { shelves(first: Int = 100): [Shelf!]! @list }
  enum BookOrder { OLDEST @sort(by: "year") }
  type Shelf @collection(name: "shelves") {
    id: ID!
    name: String!
    picks(orderBy: BookOrder): [Book!]! @snapshot(path: "picks", fields: ["id", "title", "year"]) @join(localField: "picks.id") @read(strategy: SNAPSHOT)
    pinned: Book @snapshot(path: "pinned", fields: ["id", "title", "year"]) @join(localField: "pinned.id") @read(strategy: SNAPSHOT)
  }
  type Book @collection(name: "books") { id: ID! title: String! year: Int! }
`;

const books = [
  { _id: new ObjectId(), title: 'Alpha', year: 2004 },
  { _id: new ObjectId(), title: 'Beta', year: 2001 },
  { _id: new ObjectId(), title: 'Gamma', year: 2003 },
  { _id: new ObjectId(), title: 'Delta', year: 2002 },
];
const [alpha, beta, gamma, delta] = books as [(typeof books)[number], (typeof books)[number], (typeof books)[number], (typeof books)[number]];
type BookRow = typeof alpha;
/** A copy as the widened snapshot writes it, or as it was written before `year` joined it. */
const copyOf = (book: BookRow, backfilled: boolean) => (backfilled ? { id: book._id, title: book.title, year: book.year } : { id: book._id, title: book.title });
/** Picks, in their stored order, and the pin, of each shelf; `false` marks a copy not backfilled yet. */
const SHELVES: ReadonlyArray<{ name: string; picks: ReadonlyArray<readonly [BookRow, boolean]>; pinned: readonly [BookRow, boolean] }> = [
  { name: 'one', picks: [[alpha, true], [beta, false], [gamma, true]], pinned: [beta, false] },
  { name: 'two', picks: [[delta, false], [alpha, false]], pinned: [alpha, true] },
  { name: 'three', picks: [[gamma, true]], pinned: [gamma, true] },
];
const MARKER = { _id: 'Shelf.picks', kind: 'snapshot-backfill', fields: ['year'], startedAt: new Date('2024-01-01T00:00:00Z'), resumeAfter: null };
const PIN_MARKER = { ...MARKER, _id: 'Shelf.pinned' };
const expectedPicks = SHELVES.map((shelf) => ({ name: shelf.name, picks: shelf.picks.map(([book]) => ({ title: book.title, year: book.year })) }));

const fixture = backfillFixture(SDL);

/** A database of the shelves above (every copy backfilled when `backfilled`), with these migration markers. */
async function seed(options: { backfilled: boolean; markers: readonly object[] }): Promise<Db> {
  const db = fixture.freshDb('snapshot_backfill');
  await db.collection('books').insertMany(books);
  await db.collection('shelves').insertMany(
    SHELVES.map((shelf) => ({
      name: shelf.name,
      picks: shelf.picks.map(([book, backfilled]) => copyOf(book, backfilled || options.backfilled)),
      pinned: copyOf(shelf.pinned[0], shelf.pinned[1] || options.backfilled),
    })),
  );
  await fixture.addMarkers(db, options.markers);
  return db;
}

async function withGateway(db: Db, run: (gateway: Gateway) => Promise<void>): Promise<void> {
  const gateway = await fixture.serve(db);
  try {
    await run(gateway);
  } finally {
    await gateway.stop();
  }
}

describe('while the backfill runs', () => {
  let db: Db;
  beforeAll(async () => {
    db = await seed({ backfilled: false, markers: [MARKER, PIN_MARKER] });
  });

  it('answers every parent right: copies holding the field are served, the others joined in one find, each in its place', async () => {
    await withGateway(db, async (gateway) => {
      const result = await gateway.execute({ query: '{ shelves { name picks { title year } } }' });
      expect(result.errors).toBeUndefined();
      expect(result.data).toEqual({ shelves: expectedPicks });
      // The shelves, then ONE find of the three copies not backfilled (Beta, Delta, Alpha of shelf two).
      expect(result.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2, collections: { books: { roundTrips: 1, documents: 3 } } });
      expect(result.cost!.fields['Shelf.picks']).toEqual({ strategy: 'snapshot', roundTrips: 1, documents: 3, keys: 3, snapshotHits: 3, snapshotMisses: 3 });
    });
  });

  it('a single reference joins its copy when it lacks the field; both fields share the one find of their level', async () => {
    await withGateway(db, async (gateway) => {
      const result = await gateway.execute({ query: '{ shelves { pinned { title year } picks { title year } } }' });
      expect(result.errors).toBeUndefined();
      expect(result.data).toEqual({
        shelves: SHELVES.map((shelf, i) => ({ pinned: { title: shelf.pinned[0].title, year: shelf.pinned[0].year }, picks: expectedPicks[i]!.picks })),
      });
      // One find for the level (Beta pinned, Beta, Delta, Alpha picked): the estimate counts the two fields' loader once.
      expect(result.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2, collections: { books: { roundTrips: 1, documents: 3 } } });
      expect(result.cost!.fields['Shelf.pinned']).toMatchObject({ keys: 1, snapshotHits: 2, snapshotMisses: 1 });
    });
  });

  it('an order on the widened field sorts the copies and the joined documents together', async () => {
    await withGateway(db, async (gateway) => {
      const result = await gateway.execute({ query: '{ shelves { picks(orderBy: OLDEST) { title year } } }' });
      expect(result.errors).toBeUndefined();
      const oldestFirst = (shelf: (typeof SHELVES)[number]) => shelf.picks.map(([book]) => book).sort((a, b) => a.year - b.year).map((book) => ({ title: book.title, year: book.year }));
      expect(result.data).toEqual({ shelves: SHELVES.map((shelf) => ({ picks: oldestFirst(shelf) })) });
      expect(result.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2, fields: { 'Shelf.picks': { snapshotHits: 3, snapshotMisses: 3 } } });
    });
  });

  it('a selection every copy holds is served from the copies: no find, within the estimate that allows for one', async () => {
    await withGateway(db, async (gateway) => {
      const result = await gateway.execute({ query: '{ shelves { picks { title } } }' });
      expect(result.errors).toBeUndefined();
      expect(result.data).toEqual({ shelves: SHELVES.map((shelf) => ({ picks: shelf.picks.map(([book]) => ({ title: book.title })) })) });
      expect(result.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 2 });
      expect(result.cost!.fields['Shelf.picks']).toEqual({ strategy: 'snapshot', roundTrips: 0, documents: 0, keys: 0, snapshotHits: 6, snapshotMisses: 0 });
    });
  });
});

describe('copies lacking the field with no marker: the schema widened before `docjoin migrate` ran', () => {
  it('warns at startup naming the field and the migration, and the estimate counts the join the copies need', async () => {
    const db = await seed({ backfilled: false, markers: [] });
    const warnings: string[] = [];
    const gateway = await fixture.serve(db, (message) => warnings.push(message));
    try {
      expect(warnings.filter((warning) => warning.startsWith('Shelf.'))).toEqual([
        'Shelf.picks: 2 of 3 sampled shelves documents keep a snapshot at "picks" without "year", which its @snapshot(fields:) declares; reads that need it join for those documents, and the estimates count that join until docjoin restarts after `docjoin migrate --widen Shelf.picks --fields year --write` fills them',
        'Shelf.pinned: 1 of 3 sampled shelves documents keep a snapshot at "pinned" without "year", which its @snapshot(fields:) declares; reads that need it join for those documents, and the estimates count that join until docjoin restarts after `docjoin migrate --widen Shelf.pinned --fields year --write` fills them',
      ]);
      // The checked gateway fails any request that costs more than its estimate.
      const result = await gateway.execute({ query: '{ shelves { name picks { title year } } }' });
      expect(result.data).toEqual({ shelves: expectedPicks });
      expect(result.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
    } finally {
      await gateway.stop();
    }
  });

  it('copies that hold every declared field warn of nothing', async () => {
    const warnings: string[] = [];
    const gateway = await fixture.serve(await seed({ backfilled: true, markers: [] }), (message) => warnings.push(message));
    try {
      expect(warnings.filter((warning) => warning.startsWith('Shelf.'))).toEqual([]);
      expect((await gateway.execute({ query: '{ shelves { name picks { title year } } }' })).cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
    } finally {
      await gateway.stop();
    }
  });
});

describe('once every copy holds the field', () => {
  it('with the backfill still marked running: no extra round trip, every copy a hit', async () => {
    const db = await seed({ backfilled: true, markers: [MARKER] });
    await withGateway(db, async (gateway) => {
      const result = await gateway.execute({ query: '{ shelves { name picks { title year } } }' });
      expect(result.errors).toBeUndefined();
      expect(result.data).toEqual({ shelves: expectedPicks });
      expect(result.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 2 });
      expect(result.cost!.fields['Shelf.picks']).toEqual({ strategy: 'snapshot', roundTrips: 0, documents: 0, keys: 0, snapshotHits: 6, snapshotMisses: 0 });
    });
  });

  it('with the backfill finished (or another kind of migration), the estimate is the copies again', async () => {
    const db = await seed({ backfilled: true, markers: [{ ...MARKER, finishedAt: new Date('2024-01-02T00:00:00Z') }, { ...PIN_MARKER, kind: 'other' }] });
    await withGateway(db, async (gateway) => {
      const result = await gateway.execute({ query: '{ shelves { name picks { title year } pinned { year } } }' });
      expect(result.errors).toBeUndefined();
      expect(result.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
    });
  });
});
