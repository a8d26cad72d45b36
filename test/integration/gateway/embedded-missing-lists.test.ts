import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * An embedded list the document does not hold (null, or no field at all) answers as graphql-js answers a
 * missing list: null where the list may be null, like a stored list of scalars beside it. Where the list
 * may not be null, it answers an empty list (an error would null the whole document).
 */
const SDL = /* GraphQL */ `
  type Query { orders: [Order!]! @list(sort: "ref") }
  type Line { sku: String }
  type Order @collection(name: "orders") {
    id: ID!
    ref: String!
    tags: [String]
    lines: [Line] @embedded
    required: [Line!]! @embedded(path: "lines")
  }
`;

let subject: SdlGateway;
beforeAll(async () => {
  subject = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'embedded_missing_lists',
    prepare: async (db) => {
      await db.collection('orders').insertMany([
        { _id: new ObjectId('65a000000000000000000001'), ref: 'a null', tags: null, lines: null },
        { _id: new ObjectId('65a000000000000000000002'), ref: 'b missing' },
        { _id: new ObjectId('65a000000000000000000003'), ref: 'c empty', tags: [], lines: [] },
        { _id: new ObjectId('65a000000000000000000004'), ref: 'd one', tags: ['t'], lines: [{ sku: 's' }] },
      ]);
      await db.collection('orders').createIndex({ ref: 1, _id: 1 });
    },
    gateway: { onWarning: () => undefined },
  });
}, 60_000);
afterAll(() => subject?.stop());

it('answers null for a nullable embedded list stored as null or missing, an empty list for a non-null one', async () => {
  const result = await subject.gateway.execute({ query: '{ orders { ref tags lines { sku } required { sku } } }' });
  expect([result.errors, result.data]).toEqual([
    undefined,
    {
      orders: [
        { ref: 'a null', tags: null, lines: null, required: [] },
        { ref: 'b missing', tags: null, lines: null, required: [] },
        { ref: 'c empty', tags: [], lines: [], required: [] },
        { ref: 'd one', tags: ['t'], lines: [{ sku: 's' }], required: [{ sku: 's' }] },
      ],
    },
  ]);
});
