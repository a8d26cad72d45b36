import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A connection's cursor holds the item's sort values, whatever number they are: a page ending at NaN or
 * at Infinity hands out a cursor the next page takes back, and the pages cover every item once, in
 * MongoDB's order (NaN before every other number).
 */
let s: SdlGateway;
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs: /* GraphQL */ `
      type Query { itemsPage(first: Int = 1, after: String, orderBy: ItemOrder): ItemConnection! @list }
      enum ItemOrder { SCORE @sort(by: "score") SCORE_DESC @sort(by: "-score") }
      type Item @collection(name: "items") { id: ID! name: String! score: Float }
      type ItemConnection { edges: [ItemEdge!]! pageInfo: PageInfo! }
      type ItemEdge { cursor: String! node: Item! }
      type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
    `,
    dbPrefix: 'cursor_values',
    prepare: async (db) => {
      await db.collection('items').insertMany([
        { _id: new ObjectId(), name: 'one', score: 1 },
        { _id: new ObjectId(), name: 'nan', score: Number.NaN },
        { _id: new ObjectId(), name: 'inf', score: Number.POSITIVE_INFINITY },
        { _id: new ObjectId(), name: 'minus inf', score: Number.NEGATIVE_INFINITY },
        { _id: new ObjectId(), name: 'two', score: 2 },
      ]);
    },
    gateway: { onWarning: () => undefined },
  });
}, 60_000);
afterAll(() => s?.stop());

it.each([
  ['SCORE', ['nan', 'minus inf', 'one', 'two', 'inf']],
  ['SCORE_DESC', ['inf', 'two', 'one', 'minus inf', 'nan']],
])('pages one item at a time by endCursor through every score, NaN and the infinities too (%s)', async (order, expected) => {
  const seen: string[] = [];
  let after: string | null = null;
  for (let page = 0; page < expected.length + 1; page++) {
    const result = await s.gateway.execute({ query: `query($after: String) { itemsPage(first: 1, orderBy: ${order}, after: $after) { edges { node { name } } pageInfo { hasNextPage endCursor } } }`, variables: { after } });
    expect(result.errors).toBeUndefined();
    const { edges, pageInfo } = (result.data as { itemsPage: { edges: Array<{ node: { name: string } }>; pageInfo: { hasNextPage: boolean; endCursor: string | null } } }).itemsPage;
    seen.push(...edges.map((edge) => edge.node.name));
    if (!pageInfo.hasNextPage) break;
    after = pageInfo.endCursor;
  }
  expect(seen).toEqual(expected);
});
