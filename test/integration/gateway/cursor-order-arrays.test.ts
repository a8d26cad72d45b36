import { ObjectId } from 'mongodb';
import { startSdlGateway } from '../../support/sdl-gateway';

/**
 * A field paged by cursor that sorts by a value docjoin cannot know the shape of (a scalar of your own
 * such as JSON, a path inside one, a path no field declares), where sampled documents hold an array:
 * its pages follow MongoDB's order, which places such a document by one element (sortPosition), so
 * the start warns of nothing, and every item comes once, page after page.
 */
const TYPE_DEFS = /* GraphQL */ `
  scalar JSON
  type Query {
    items(first: Int = 1, after: String, orderBy: ItemOrder): ItemConnection! @list
    itemList(first: Int = 1, after: ID, orderBy: ItemOrder): [Item!]! @list(sort: "rank")
    firstItems(first: Int = 1, orderBy: ItemOrder): [Item!]! @list
  }
  enum ItemOrder { META @sort(by: "meta") META_RANK @sort(by: "meta.rank") }
  type Item @collection(name: "items") { id: ID! name: String! meta: JSON }
  type ItemConnection { edges: [ItemEdge!]! pageInfo: PageInfo! }
  type ItemEdge { cursor: String! node: Item! }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
`;

it('warns of nothing, and pages through every item once in MongoDB order', async () => {
  const warnings: string[] = [];
  const s = await startSdlGateway({
    typeDefs: TYPE_DEFS,
    dbPrefix: 'cursor_order_arrays',
    prepare: async (db) => {
      await db.collection('items').insertMany([
        { _id: new ObjectId('000000000000000000000001'), name: 'a', meta: [5, 1], rank: [2, 3] },
        { _id: new ObjectId('000000000000000000000002'), name: 'b', meta: { rank: [1, 9] }, rank: 1 },
        { _id: new ObjectId('000000000000000000000003'), name: 'c', meta: 4, rank: 2 },
      ]);
    },
    gateway: { onWarning: (warning) => warnings.push(warning) },
  });
  try {
    expect(warnings.filter((warning) => warning.includes('array'))).toEqual([]);
    const names: string[] = [];
    let after: string | undefined;
    for (let page = 0; page < 5; page++) {
      const result = await s.gateway.execute({ query: `{ items(orderBy: META_RANK${after === undefined ? '' : `, after: "${after}"`}) { edges { node { name } } pageInfo { hasNextPage endCursor } } }` });
      expect(result.errors).toBeUndefined();
      const { edges, pageInfo } = (result.data as { items: { edges: Array<{ node: { name: string } }>; pageInfo: { hasNextPage: boolean; endCursor: string } } }).items;
      names.push(...edges.map((edge) => edge.node.name));
      if (!pageInfo.hasNextPage) break;
      after = pageInfo.endCursor;
    }
    // meta.rank: a (through [5, 1], reaching nothing: null), c (4: no rank inside, null), b (at 1).
    expect(names).toEqual(await s.db.collection('items').find({}, { sort: { 'meta.rank': 1, _id: 1 } }).map((item) => item.name as string).toArray());
  } finally {
    await s.stop();
  }
});
