import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * Paging by an order on a field some documents hold null in, or lack: MongoDB sorts null and missing
 * before every value, and `$gt`/`$lt` never match them, so each page's "after" condition places them as
 * the sort does. Every document comes exactly once, in the order one unpaged read gives, by `after: ID`
 * and by a connection's cursors, ascending and descending.
 */
const TYPE_DEFS = /* GraphQL */ `
  type Query {
    items(first: Int = 2, after: ID, orderBy: ItemOrder): [Item!]! @list
    itemsPage(first: Int = 2, after: String, orderBy: ItemOrder): ItemConnection! @list
  }
  enum ItemOrder { PRICE_DESC @sort(by: "-price") PRICE_ASC @sort(by: "price") LABEL_PRICE @sort(by: "label,-price") }
  type Item @collection(name: "items") { id: ID! name: String! label: String price: Int }
  type ItemConnection { edges: [ItemEdge!]! pageInfo: PageInfo! }
  type ItemEdge { cursor: String! node: Item! }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
`;

const NAMES = ['p30', 'p10', 'null-a', 'missing-a', 'p20', 'missing-b', 'null-b'];
let s: SdlGateway;

beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs: TYPE_DEFS,
    dbPrefix: 'paging_nullable',
    prepare: async (db) => {
      await db.collection('items').insertMany([
        { _id: new ObjectId(), name: 'p30', label: 'x', price: 30 },
        { _id: new ObjectId(), name: 'p10', price: 10 },
        { _id: new ObjectId(), name: 'null-a', label: 'x', price: null },
        { _id: new ObjectId(), name: 'missing-a', label: null },
        { _id: new ObjectId(), name: 'p20', label: 'x', price: 20 },
        { _id: new ObjectId(), name: 'missing-b', label: 'x' },
        { _id: new ObjectId(), name: 'null-b', price: null },
      ]);
    },
    gateway: { onWarning: () => undefined },
  });
}, 60_000);
afterAll(() => s?.stop());

async function names(query: string, variables: Record<string, unknown> = {}): Promise<{ items: Array<{ id: string; name: string }>; next?: string | null; more?: boolean }> {
  const result = await s.gateway.execute({ query, variables });
  expect(result.errors).toBeUndefined();
  const data = result.data as { items?: Array<{ id: string; name: string }>; itemsPage?: { edges: Array<{ node: { id: string; name: string } }>; pageInfo: { hasNextPage: boolean; endCursor: string | null } } };
  if (data.items) return { items: data.items };
  return { items: data.itemsPage!.edges.map((edge) => edge.node), next: data.itemsPage!.pageInfo.endCursor, more: data.itemsPage!.pageInfo.hasNextPage };
}

describe.each(['PRICE_DESC', 'PRICE_ASC', 'LABEL_PRICE'])('orderBy: %s', (order) => {
  let whole: string[];
  beforeAll(async () => {
    whole = (await names(`{ items(first: 50, orderBy: ${order}) { id name } }`)).items.map((item) => item.name);
    expect([...whole].sort()).toEqual([...NAMES].sort());
  });

  it('after: ID pages through every document once, in the unpaged order', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < NAMES.length; page++) {
      const { items } = await names(`query($after: ID) { items(first: 2, orderBy: ${order}, after: $after) { id name } }`, { after });
      if (items.length === 0) break;
      seen.push(...items.map((item) => item.name));
      after = items.at(-1)!.id;
    }
    expect(seen).toEqual(whole);
  });

  it("a connection's cursors page through every document once, and hasNextPage is false only at the end", async () => {
    const seen: string[] = [];
    let after: string | null | undefined = null;
    for (let page = 0; page < NAMES.length; page++) {
      const { items, next, more } = await names(`query($after: String) { itemsPage(first: 2, orderBy: ${order}, after: $after) { edges { node { id name } } pageInfo { hasNextPage endCursor } } }`, { after });
      seen.push(...items.map((item) => item.name));
      expect(more).toBe(seen.length < NAMES.length);
      if (!more) break;
      after = next;
    }
    expect(seen).toEqual(whole);
  });
});
