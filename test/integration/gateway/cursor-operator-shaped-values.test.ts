import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A connection ordered by a field some documents store as an object whose keys start with `$`
 * (`{ $oid: "…" }`, Extended JSON imported with JSON.parse) hands out cursors that resume right after
 * their own item: the cursor keeps the object as stored, never as the ObjectId its Extended JSON
 * spells, and docjoin does not take its own cursor for an edited one.
 */
const TYPE_DEFS = /* GraphQL */ `
  type Query {
    orders(first: Int = 1, after: String): OrderConnection! @list(sort: "ref")
  }
  scalar JSON
  type Order @collection(name: "orders") { id: ID! label: String! ref: JSON }
  type OrderConnection { edges: [OrderEdge!]! pageInfo: PageInfo! }
  type OrderEdge { cursor: String! node: Order! }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
`;

const customer = new ObjectId('0000000000000000000000c1');
let s: SdlGateway;
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs: TYPE_DEFS,
    dbPrefix: 'cursor_operator_shaped',
    prepare: async (db) => {
      await db.collection('orders').insertMany([
        { _id: new ObjectId('000000000000000000000001'), label: 'an ObjectId', ref: customer },
        { _id: new ObjectId('000000000000000000000002'), label: 'its $oid', ref: { $oid: customer.toHexString() } },
        { _id: new ObjectId('000000000000000000000003'), label: 'another $oid', ref: { $oid: '0000000000000000000000c2' } },
        { _id: new ObjectId('000000000000000000000004'), label: 'an operator', ref: { $gt: '' } },
        { _id: new ObjectId('000000000000000000000005'), label: 'a bad $oid', ref: { $oid: 'not hex' } },
      ]);
      await db.collection('orders').createIndex({ ref: 1, _id: 1 });
    },
    gateway: { onWarning: () => undefined },
  });
}, 60_000);
afterAll(() => s?.stop());

type Page = { orders: { edges: Array<{ cursor: string; node: { label: string } }> } };

it("resumes after each edge's own item", async () => {
  const whole = await s.gateway.execute({ query: '{ orders(first: 5) { edges { cursor node { label } } } }' });
  expect(whole.errors).toBeUndefined();
  const { edges } = (whole.data as Page).orders;
  const labels = edges.map((edge) => edge.node.label);
  expect(labels).toEqual(['an operator', 'its $oid', 'another $oid', 'a bad $oid', 'an ObjectId']);
  const resumed: unknown[] = [];
  for (const edge of edges) {
    const next = await s.gateway.execute({ query: 'query ($after: String) { orders(first: 5, after: $after) { edges { node { label } } } }', variables: { after: edge.cursor } });
    resumed.push(next.errors ?? (next.data as Page).orders.edges.map((after) => after.node.label));
  }
  expect(resumed).toEqual(labels.map((_, index) => labels.slice(index + 1)));
});
