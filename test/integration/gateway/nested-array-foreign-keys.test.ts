import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A child whose key array holds an array (`tagIds: [null, T2, [T3]]`) is a child of T2 alone: MongoDB's
 * equality does not look into the inner array. Its list, its connection's totalCount and its aggregate
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
  }
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
    },
    gateway: { onWarning: () => undefined },
  });
}, 60_000);
afterAll(() => subject?.stop());

it('counts and aggregates a child only for the keys its array holds itself, as its list has it', async () => {
  const query = '{ tags { name items { name } itemsConnection { totalCount } itemsAggregate { count sum { qty } } } }';
  for (const strategyHeader of ['', 'Tag.items=lookup']) {
    const result = await subject.gateway.execute({ query }, { strategyHeader });
    expect([strategyHeader, result.errors, result.data]).toEqual([
      strategyHeader,
      undefined,
      {
        tags: [
          { name: 'two', items: [{ name: 'a' }, { name: 'd' }], itemsConnection: { totalCount: 2 }, itemsAggregate: { count: 2, sum: { qty: 9 } } },
          { name: 'three', items: [], itemsConnection: { totalCount: 0 }, itemsAggregate: { count: 0, sum: { qty: 0 } } },
        ],
      },
    ]);
  }
});
