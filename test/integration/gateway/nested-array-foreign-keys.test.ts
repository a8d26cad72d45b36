import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A child whose key array holds an array (`tagIds: [null, T2, [T3]]`) is a child of T2 alone: MongoDB's
 * equality does not look into the inner array, at the end of a dotted path either, nor into an array
 * inside an array of documents along it. Its list, its connection's totalCount and its aggregate
 * agree on that, by join and by lookup (the count and the aggregate credited it to T3 as well).
 */
const SDL = /* GraphQL */ `
  type Query { tags: [Tag!]! @list }
  type Tag @collection(name: "tags") {
    id: ID!
    name: String!
    items: [Item!]! @join(localField: "_id", foreignField: "tagIds", sort: "name")
    itemsConnection(first: Int = 5, after: String): ItemConnection! @join(localField: "_id", foreignField: "tagIds", sort: "name")
    itemsAggregate: ItemAggregate! @aggregate(of: "items", fields: ["qty"])
    credited: [Entry!]! @join(localField: "_id", foreignField: "credits.tagIds", sort: "name")
    creditedConnection(first: Int = 5, after: String): EntryConnection! @join(localField: "_id", foreignField: "credits.tagIds", sort: "name")
    creditedAggregate: EntryAggregate! @aggregate(of: "credited", fields: ["qty"])
  }
  type EntryConnection { edges: [EntryEdge!]! pageInfo: PageInfo! totalCount: Int! }
  type EntryEdge { cursor: String! node: Entry! }
  type Entry @collection(name: "entries") { id: ID! name: String! qty: Int! }
  type ItemConnection { edges: [ItemEdge!]! pageInfo: PageInfo! totalCount: Int! }
  type ItemEdge { cursor: String! node: Item! }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
  type Item @collection(name: "items") { id: ID! name: String! qty: Int! }
`;
const oid = (n: number) => new ObjectId(n.toString(16).padStart(24, '0'));
const [two, three] = [oid(2), oid(3)];

let subject: SdlGateway;
beforeAll(async () => {
  subject = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'nested_array_foreign_keys',
    prepare: async (db) => {
      await db.collection('tags').insertMany([
        { _id: two, name: 'two' },
        { _id: three, name: 'three' },
      ]);
      await db.collection('items').insertMany([
        { _id: oid(11), name: 'a', qty: 1, tagIds: [two] },
        { _id: oid(14), name: 'd', qty: 8, tagIds: [null, two, [three]] },
        { _id: oid(15), name: 'e', qty: 16, tagIds: [[three]] },
      ]);
      await db.collection('items').createIndex({ tagIds: 1, name: 1, _id: 1 });
      await db.collection('entries').insertMany([
        // Down a dotted path, an array inside the keys' array names no parent either.
        { _id: oid(21), name: 'p', qty: 1, credits: { tagIds: [two, [three]] } },
        // An array of documents is looked into; an array inside it is not.
        { _id: oid(22), name: 'q', qty: 2, credits: [{ tagIds: two }, [{ tagIds: three }]] },
        { _id: oid(23), name: 'r', qty: 4, credits: [{ tagIds: [three] }, { tagIds: two }, { tagIds: [[two]] }] },
      ]);
      await db.collection('entries').createIndex({ 'credits.tagIds': 1, name: 1, _id: 1 });
    },
    gateway: { onWarning: () => undefined },
  });
}, 60_000);
afterAll(() => subject?.stop());

/** The tags with their children of `list` (`items` or `credited`), counted and summed, by join and by lookup. */
async function expectByEveryStrategy(list: string, tags: readonly object[]): Promise<void> {
  const query = `{ tags { name ${list} { name } ${list}Connection { totalCount } ${list}Aggregate { count sum { qty } } } }`;
  for (const strategyHeader of ['', `Tag.${list}=lookup`]) {
    const result = await subject.gateway.execute({ query }, { strategyHeader });
    expect([strategyHeader, result.errors, result.data]).toEqual([strategyHeader, undefined, { tags }]);
  }
}

it('counts and aggregates a child down a dotted path only for the keys MongoDB matches there, as its list has it', async () => {
  await expectByEveryStrategy('credited', [
    { name: 'two', credited: [{ name: 'p' }, { name: 'q' }, { name: 'r' }], creditedConnection: { totalCount: 3 }, creditedAggregate: { count: 3, sum: { qty: 7 } } },
    { name: 'three', credited: [{ name: 'r' }], creditedConnection: { totalCount: 1 }, creditedAggregate: { count: 1, sum: { qty: 4 } } },
  ]);
});

it('counts and aggregates a child only for the keys its array holds itself, as its list has it', async () => {
  await expectByEveryStrategy('items', [
    { name: 'two', items: [{ name: 'a' }, { name: 'd' }], itemsConnection: { totalCount: 2 }, itemsAggregate: { count: 2, sum: { qty: 9 } } },
    { name: 'three', items: [], itemsConnection: { totalCount: 0 }, itemsAggregate: { count: 0, sum: { qty: 0 } } },
  ]);
});
