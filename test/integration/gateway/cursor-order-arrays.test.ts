import { ObjectId } from 'mongodb';
import { startSdlGateway } from '../../support/sdl-gateway';

/**
 * A field paged by cursor that sorts by a value docjoin cannot know the shape of (a scalar of your own
 * such as JSON, a path inside one, a path no field declares) warns at startup when sampled documents
 * hold an array there: MongoDB places such a document by one element while a page's condition matches
 * any, so pages may skip or repeat it. A list paged with `first` only is not named.
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

it('warns for each field paged by cursor and each path where sampled documents hold an array', async () => {
  const warnings: string[] = [];
  const s = await startSdlGateway({
    typeDefs: TYPE_DEFS,
    dbPrefix: 'cursor_order_arrays',
    prepare: async (db) => {
      await db.collection('items').insertMany([
        { _id: new ObjectId(), name: 'a', meta: [5, 1], rank: [2, 3] },
        { _id: new ObjectId(), name: 'b', meta: { rank: [1, 9] }, rank: 1 },
        { _id: new ObjectId(), name: 'c', meta: 4, rank: 2 },
      ]);
    },
    gateway: { onWarning: (warning) => warnings.push(warning) },
  });
  await s.stop();
  const holding = (coordinate: string, order: string, path: string, documents = 1) =>
    `${coordinate}: pages by cursor, and ${order} sorts by "${path}", which holds an array in ${documents} of 3 sampled items documents: MongoDB orders such a document by its smallest element (its largest, descending) while a page's condition matches any element, so pages may skip or repeat it; store one value there, or page ${coordinate} with first only`;
  expect(warnings.filter((warning) => warning.includes('pages by cursor'))).toEqual([
    holding('Query.items', 'orderBy: META', 'meta'),
    // Read through the array [5, 1] too, as MongoDB reads it.
    holding('Query.items', 'orderBy: META_RANK', 'meta.rank', 2),
    holding('Query.itemList', 'its @list', 'rank'),
    holding('Query.itemList', 'orderBy: META', 'meta'),
    holding('Query.itemList', 'orderBy: META_RANK', 'meta.rank', 2),
  ]);
});
