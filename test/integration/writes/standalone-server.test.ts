import { MongoServerError } from 'mongodb';
import { connectMongo, createGateway, type Gateway } from 'docjoin';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../src/embedded-mongo';

/**
 * Against a standalone server (the embedded one started as a `mongod` without `--replSet`), the default
 * `writes.transactions` ('auto') writes in order without a transaction: a mutation writing a capped
 * collection, which no transaction may write, starts and answers (`atomic: false`), as the README's
 * "A standalone mongod runs no transactions. Mutations still work" says.
 */
const SDL = /* GraphQL */ `
  type Query { logs(first: Int = 10): [Log!]! @list }
  type Mutation { createLog(input: LogInput!): Log! @create }
  type Log @collection(name: "logs") { id: ID! text: String! }
  input LogInput { text: String! }
`;

let server: EmbeddedMongo;
beforeAll(async () => {
  server = await startEmbeddedMongo({ standalone: true });
});
afterAll(() => server?.stop());

it('presents itself as a standalone mongod: no replica set in hello, a transaction number refused', async () => {
  const client = await connectMongo(server.uri);
  try {
    const hello = await client.db('admin').command({ hello: 1 });
    expect([hello.isWritablePrimary, hello.setName, hello.hosts]).toEqual([true, undefined, undefined]);
    const refused = await client
      .db('standalone_probe')
      .command({ insert: 'notes', documents: [{ text: 'x' }], txnNumber: 1 })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(MongoServerError);
    expect([(refused as MongoServerError).code, (refused as MongoServerError).message]).toEqual([20, 'Transaction numbers are only allowed on a replica set member or mongos']);
    expect(await client.db('standalone_probe').collection('notes').countDocuments()).toBe(0);
  } finally {
    await client.close();
  }
});

it('starts a gateway whose mutation writes a capped collection with the default transactions, and writes without one', async () => {
  const client = await connectMongo(server.uri);
  let gateway: Gateway | undefined;
  try {
    await client.db('standalone_capped').createCollection('logs', { capped: true, size: 1 << 20 });
    gateway = await createGateway({ typeDefs: SDL, mongoClient: client, db: 'standalone_capped', listen: false, onWarning: () => undefined });
    const result = await gateway.execute({ query: 'mutation { createLog(input: { text: "kept" }) { text } }' });
    expect([result.errors, result.data, result.cost?.writes?.atomic]).toEqual([undefined, { createLog: { text: 'kept' } }, false]);
    expect(await client.db('standalone_capped').collection('logs').find({}, { projection: { _id: 0 } }).toArray()).toEqual([{ text: 'kept' }]);
  } finally {
    await gateway?.stop();
    await client.close();
  }
});
