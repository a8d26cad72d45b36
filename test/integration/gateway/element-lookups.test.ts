import { ObjectId } from 'mongodb';
import { GraphQLScalarType } from 'graphql';
import type { Gateway } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/** Joins read by lookup from the elements of an embedded array (or object): one command, each element its own documents. */
const SDL = /* GraphQL */ `
  type Query { people: [Person!]! @list }
  type Person @collection(name: "people") {
    id: ID!
    name: String!
    holdings: [Holding!]! @embedded
    pinned: Holding @embedded
    lots(first: Int = 2): [Holding!]! @embedded
  }
  type Holding {
    shares: Int!
    stock: Stock @join(localField: "stockId")
    watch: [Stock!]! @join(localField: "watchIds")
    notes: [Note!]! @join(localField: "stockId", foreignField: "stockId", sort: "_id", limit: 5)
  }
  type Stock @collection(name: "stocks") { id: ID! symbol: String! issuer: Issuer @join(localField: "issuerId") }
  type Issuer @collection(name: "issuers") { id: ID! name: String! }
  type Note @collection(name: "notes") { id: ID! text: String! }
`;

const [s1, s2, s3, gone, i1] = Array.from({ length: 5 }, (_, i) => new ObjectId(`65e00000000000000000000${i + 1}`));
const LOOKUPS = 'Holding.stock=lookup,Holding.watch=lookup,Stock.issuer=lookup';

let subject: SdlGateway;
let gateway: Gateway;
beforeAll(async () => {
  subject = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'element_lookups',
    prepare: async (db) => {
      await db.collection('issuers').insertOne({ _id: i1!, name: 'Acme' });
      await db.collection('stocks').insertMany([
        { _id: s1!, symbol: 'ONE', issuerId: i1 },
        { _id: s2!, symbol: 'TWO' },
        { _id: s3!, symbol: 'THREE', issuerId: gone },
      ]);
      await db.collection('notes').insertMany([{ stockId: s1, text: 'on one' }, { stockId: s2, text: 'on two' }, { stockId: s1, text: 'more on one' }]);
      await db.collection('notes').createIndex({ stockId: 1, _id: 1 });
      await db.collection('people').insertMany([
        {
          _id: new ObjectId('65f000000000000000000001'),
          name: 'Ann',
          holdings: [
            { shares: 1, stockId: s1, watchIds: [s2, s1, gone, s2] },
            { shares: 2, stockId: s1, watchIds: [] },
            { shares: 3, stockId: gone },
          ],
          pinned: { shares: 9, stockId: s2, watchIds: [] },
          lots: [{ shares: 1, stockId: s2 }, { shares: 2, stockId: s3 }, { shares: 3, stockId: s1, watchIds: [s1] }],
        },
        { _id: new ObjectId('65f000000000000000000002'), name: 'Bob', holdings: [] },
        { _id: new ObjectId('65f000000000000000000003'), name: 'Cid', holdings: [{ shares: 4, watchIds: [s3] }], pinned: null, lots: [] },
      ]);
    },
  });
  gateway = subject.gateway;
}, 60_000);
afterAll(() => subject?.stop());

describe('a join by key under an embedded array, read by lookup', () => {
  const query = '{ people { name holdings { shares stock { symbol issuer { name } } watch { symbol } } pinned { shares stock { symbol } } lots { stock { symbol } } } }';

  it('answers what the join answers, in one command: each element gets the documents of its own keys, in their order, repeats kept', async () => {
    const joined = await gateway.execute({ query });
    expect(joined.errors).toBeUndefined();
    // people, stocks (the four joins of the three embedded fields share one batch), issuers.
    expect(joined.cost!.roundTrips).toBe(3);
    const looked = await gateway.execute({ query }, { strategyHeader: LOOKUPS, costHeader: 'commands' });
    expect(looked.errors).toBeUndefined();
    expect(looked.data).toEqual(joined.data);
    expect(looked.data).toEqual({
      people: [
        {
          name: 'Ann',
          holdings: [
            { shares: 1, stock: { symbol: 'ONE', issuer: { name: 'Acme' } }, watch: [{ symbol: 'TWO' }, { symbol: 'ONE' }, { symbol: 'TWO' }] },
            { shares: 2, stock: { symbol: 'ONE', issuer: { name: 'Acme' } }, watch: [] },
            { shares: 3, stock: null, watch: [] },
          ],
          pinned: { shares: 9, stock: { symbol: 'TWO' } },
          lots: [{ stock: { symbol: 'TWO' } }, { stock: { symbol: 'THREE' } }],
        },
        { name: 'Bob', holdings: [], pinned: null, lots: [] },
        { name: 'Cid', holdings: [{ shares: 4, stock: null, watch: [{ symbol: 'THREE' }] }], pinned: null, lots: [] },
      ],
    });
    expect(looked.cost!.commands!.map((command) => `${command.command} ${command.collection}`)).toEqual(['aggregate people']);
    expect(looked.cost).toMatchObject({ roundTrips: 1, estimatedRoundTrips: 1 });
    // A document is sent once per parent document, however many of its elements hold its key (each element
    // gets it from that list): the 3 people; Ann's ONE and its issuer, TWO and ONE watched, TWO pinned,
    // TWO and THREE in the first two lots (the third is cut before the lookup); Cid's THREE watched.
    expect(looked.cost!.documents).toBe(3 + 2 + 2 + 1 + 2 + 1);
    // Each element's own documents: ONE twice and none for the dangling key (holdings), TWO (pinned), TWO and THREE (the first two lots).
    expect(looked.cost!.fields['Holding.stock']).toMatchObject({ strategy: 'lookup', documents: 5, keys: 6, dangling: 1 });
    // Ann's first holding watches TWO, ONE, a dangling key and TWO again: two documents sent, TWO answered twice; Cid's THREE.
    expect(looked.cost!.fields['Holding.watch']).toMatchObject({ strategy: 'lookup', documents: 3, keys: 5, dangling: 1 });
  });

  it('joins a reverse join under the elements (its per-parent limit would span them all), and still looks up the rest', async () => {
    const noted = '{ people { holdings { stock { symbol } notes { text } } } }';
    const joined = await gateway.execute({ query: noted });
    const looked = await gateway.execute({ query: noted }, { strategyHeader: `${LOOKUPS},Holding.notes=lookup`, costHeader: 'commands' });
    expect(looked.errors).toBeUndefined();
    expect(looked.data).toEqual(joined.data);
    expect(looked.cost!.commands!.map((command) => `${command.command} ${command.collection}`)).toEqual(['aggregate people', 'aggregate notes']);
    expect(looked.cost).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2 });
    expect(looked.cost!.fields['Holding.notes']).toMatchObject({ strategy: 'join', roundTrips: 1 });
  });
});

describe('an element lookup beside a field returning the same stored value whole', () => {
  const RAW_SDL = /* GraphQL */ `
    scalar JSON
    type Query { people: [Person!]! @list }
    type Person @collection(name: "people") {
      id: ID!
      holdings: [Holding!]! @embedded
      holdingsRaw: JSON @path(path: "holdings")
      pinned: Holding @embedded
      pinnedRaw: JSON @path(path: "pinned")
    }
    type Holding { shares: Int! stock: Stock @join(localField: "stockId") }
    type Stock @collection(name: "stocks") { id: ID! symbol: String! }
  `;
  const JSONScalar = new GraphQLScalarType({ name: 'JSON', serialize: (value) => JSON.parse(JSON.stringify(value)) as unknown });
  let raw: SdlGateway;
  beforeAll(async () => {
    raw = await startSdlGateway({
      typeDefs: RAW_SDL,
      dbPrefix: 'element_lookups_raw',
      prepare: async (db) => {
        await db.collection('stocks').insertMany([{ _id: s1!, symbol: 'ONE' }, { _id: s2!, symbol: 'TWO' }]);
        await db.collection('people').insertOne({ holdings: [{ shares: 1, stockId: s1 }, { shares: 2, stockId: s2 }], pinned: { shares: 9, stockId: s2 } });
      },
      gateway: { resolvers: { JSON: JSONScalar } },
    });
  }, 60_000);
  afterAll(() => raw?.stop());

  it('answers the stored value as it is: the documents handed to its elements are not in it', async () => {
    const query = '{ people { holdings { stock { symbol } } holdingsRaw pinned { stock { symbol } } pinnedRaw } }';
    const stored = { holdingsRaw: [{ shares: 1, stockId: s1!.toHexString() }, { shares: 2, stockId: s2!.toHexString() }], pinnedRaw: { shares: 9, stockId: s2!.toHexString() } };
    const expected = { people: [{ holdings: [{ stock: { symbol: 'ONE' } }, { stock: { symbol: 'TWO' } }], pinned: { stock: { symbol: 'TWO' } }, ...stored }] };
    for (const strategyHeader of ['Holding.stock=join', 'Holding.stock=lookup']) {
      const result = await raw.gateway.execute({ query }, { strategyHeader });
      expect([strategyHeader, result.errors, result.data]).toEqual([strategyHeader, undefined, expected]);
    }
    expect((await raw.gateway.execute({ query }, { strategyHeader: 'Holding.stock=lookup' })).cost?.roundTrips).toBe(1);
  });
});
