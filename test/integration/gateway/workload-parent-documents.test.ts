import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ObjectId, type Db, type MongoClient } from 'mongodb';
import { gatewaySettingsOf, loadConfig } from '../../../src/config/config';
import { connectMongo, readWorkload, type FieldWorkload } from 'docjoin';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { createCheckedGateway } from '../../support/checked-gateway';

/**
 * Workload capture counts the distinct parent documents a relation field resolved on, per place the
 * operation selects it: a publisher under each of its books resolves Publisher.books once per book, but
 * it is one document in the publishers' command, where a lookup would join it once per alias page (what
 * `docjoin advise` prices a lookup's joins by).
 */
const SDL = /* GraphQL */ `
  type Query { books(first: Int = 20): [Book!]! @list }
  type Book @collection(name: "books") {
    id: ID!
    title: String!
    publisher: Publisher @join(localField: "publisherId")
  }
  type Publisher @collection(name: "publishers") {
    id: ID!
    name: String!
    books(first: Int = 2): [Book!]! @join(localField: "_id", foreignField: "publisherId", sort: "title")
  }
`;

const penguin = new ObjectId('66c000000000000000000001');
const faber = new ObjectId('66c000000000000000000002');

let mongo: TestMongo;
let client: MongoClient;
let db: Db;
let folder: string;
beforeAll(async () => {
  mongo = await startTestMongo();
  db = mongo.freshDb('workload_parents');
  await db.collection('publishers').insertMany([
    { _id: penguin, name: 'Penguin' },
    { _id: faber, name: 'Faber' },
  ]);
  // Five books, three under one publisher and two under the other.
  await db.collection('books').insertMany(['A', 'B', 'C', 'D', 'E'].map((title, index) => ({ _id: new ObjectId(`66d00000000000000000000${index + 1}`), title, publisherId: index < 3 ? penguin : faber })));
  await db.collection('books').createIndex({ publisherId: 1, title: 1 });
  client = await connectMongo(mongo.uri);
  folder = mkdtempSync(join(tmpdir(), 'docjoin-workload-parents-'));
}, 60_000);
afterAll(async () => {
  await client?.close();
  await mongo?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

it('counts a parent several others share once per operation, and each resolve apart', async () => {
  const file = join(folder, 'workload.jsonl');
  const gateway = await createCheckedGateway({ db: db.databaseName, mongoClient: client, ...gatewaySettingsOf(loadConfig({ PORT: '0' })), typeDefs: SDL, listen: false, workload: { file } });
  try {
    for (const query of ['{ books { title publisher { name books { title } } } }', '{ books(first: 2) { title publisher { name a: books { title } b: books(first: 1) { title } } } }']) {
      const result = await gateway.execute({ query });
      expect(result.errors).toBeUndefined();
    }
  } finally {
    await gateway.stop();
  }
  const { fields } = await readWorkload({ file });
  const counts = (coordinate: string) => {
    const entry = fields.find((field: FieldWorkload) => field.field === coordinate)!;
    return { operations: entry.operations, resolves: entry.resolves, parentDocuments: entry.parentDocuments };
  };
  // Each book is its own parent: 5, then 2.
  expect(counts('Book.publisher')).toEqual({ operations: 2, resolves: 5 + 2, parentDocuments: 5 + 2 });
  // 5 books name 2 publishers: 5 resolves on 2 documents. Then 2 books of one publisher, resolved under two
  // aliases each: 4 resolves on 1 document, which a lookup per alias page joins twice.
  expect(counts('Publisher.books')).toEqual({ operations: 2, resolves: 5 + 2 * 2, parentDocuments: 2 + 1 * 2 });
});
