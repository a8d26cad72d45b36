import { BSONRegExp, Long, ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A connection's cursor holds the item's sort values, whatever they are: a page ending at NaN or at
 * Infinity, at a Long past 2^53 (in the sort key or in the `_id` that breaks ties), or at a value of
 * another type than the schema's (an object, a regex) hands out a cursor the next page takes back, and
 * the pages cover every item once, in MongoDB's order (NaN before every other number).
 */
let s: SdlGateway;
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs: /* GraphQL */ `
      type Query {
        itemsPage(first: Int = 1, after: String, orderBy: ItemOrder): ItemConnection! @list
        talliesPage(first: Int = 1, after: String, orderBy: TallyOrder): TallyConnection! @list
      }
      enum ItemOrder { SCORE @sort(by: "score") SCORE_DESC @sort(by: "-score") LABEL @sort(by: "label") LABEL_DESC @sort(by: "-label") }
      enum TallyOrder { BIG @sort(by: "big") BIG_DESC @sort(by: "-big") GROUP @sort(by: "group") }
      type Item @collection(name: "items") { id: ID! name: String! score: Float label: String }
      type Tally @collection(name: "tallies") { name: String! big: Long! group: String! }
      type ItemConnection { edges: [ItemEdge!]! pageInfo: PageInfo! }
      type ItemEdge { cursor: String! node: Item! }
      type TallyConnection { edges: [TallyEdge!]! pageInfo: PageInfo! }
      type TallyEdge { cursor: String! node: Tally! }
      type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
    `,
    dbPrefix: 'cursor_values',
    prepare: async (db) => {
      await db.collection('items').insertMany([
        { _id: new ObjectId(), name: 'one', score: 1, label: 'b' },
        { _id: new ObjectId(), name: 'nan', score: Number.NaN, label: { first: 'x' } },
        { _id: new ObjectId(), name: 'inf', score: Number.POSITIVE_INFINITY, label: new BSONRegExp('^a', 'i') },
        { _id: new ObjectId(), name: 'minus inf', score: Number.NEGATIVE_INFINITY, label: { first: 'a' } },
        { _id: new ObjectId(), name: 'two', score: 2, label: 'a' },
      ]);
      // Past 2^53 a double holds only even numbers: these Longs would round onto one another.
      await db.collection('tallies').insertMany(
        ['9007199254740993', '9007199254740995', '9007199254740997'].map((digits, index) => ({ _id: Long.fromString(digits) as unknown as ObjectId, name: `n${index + 1}`, big: Long.fromString(digits), group: 'same' })),
      );
    },
    gateway: { onWarning: () => undefined },
  });
}, 60_000);
afterAll(() => s?.stop());

/** The names of every item, one page at a time by endCursor (one page more than there are items, at most). */
async function walk(field: 'itemsPage' | 'talliesPage', order: string, count: number): Promise<string[]> {
  const seen: string[] = [];
  let after: string | null = null;
  for (let page = 0; page < count + 1; page++) {
    const result = await s.gateway.execute({ query: `query($after: String) { ${field}(first: 1, orderBy: ${order}, after: $after) { edges { node { name } } pageInfo { hasNextPage endCursor } } }`, variables: { after } });
    expect(result.errors).toBeUndefined();
    const { edges, pageInfo } = (result.data as Record<string, { edges: Array<{ node: { name: string } }>; pageInfo: { hasNextPage: boolean; endCursor: string | null } }>)[field]!;
    seen.push(...edges.map((edge) => edge.node.name));
    if (!pageInfo.hasNextPage) break;
    after = pageInfo.endCursor;
  }
  return seen;
}

it.each([
  ['SCORE', ['nan', 'minus inf', 'one', 'two', 'inf']],
  ['SCORE_DESC', ['inf', 'two', 'one', 'minus inf', 'nan']],
])('pages one item at a time by endCursor through every score, NaN and the infinities too (%s)', async (order, expected) => {
  expect(await walk('itemsPage', order, expected.length)).toEqual(expected);
});

it.each([
  ['BIG', ['n1', 'n2', 'n3']],
  ['BIG_DESC', ['n3', 'n2', 'n1']],
  // Ties on group: the Long _id orders them.
  ['GROUP', ['n1', 'n2', 'n3']],
])('pages through Longs past 2^53 once each, in the sort key and in the _id (%s)', async (order, expected) => {
  expect(await walk('talliesPage', order, expected.length)).toEqual(expected);
});

it.each([
  // Strings, then objects, then regexes: MongoDB's order of types.
  ['LABEL', ['two', 'one', 'minus inf', 'nan', 'inf']],
  ['LABEL_DESC', ['inf', 'nan', 'minus inf', 'one', 'two']],
])('takes back the cursor of an item holding an object or a regex where the schema says String (%s)', async (order, expected) => {
  expect(await walk('itemsPage', order, expected.length)).toEqual(expected);
});
