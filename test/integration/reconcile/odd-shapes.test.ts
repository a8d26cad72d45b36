import { ObjectId } from 'mongodb';
import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { reconcile } from '../../../src/reconcile/reconcile';
import { mongoForFile } from '../../support/test-mongo';

/**
 * Values of the wrong shape where derived data belongs are not clean: an inverse's lone id, a string, a
 * bare ObjectId or a date where a required copy goes, or in a required list of copies (none is a copy
 * whose source could be missing).
 */
const SDL = /* GraphQL */ `type Query { authors: [Author!]! @list }
type Author @collection(name: "authors") {
  id: ID!
  name: String!
  books: [Book!]! @join(localField: "bookIds") @inverse(of: "Book.author")
}
type Book @collection(name: "books") {
  id: ID!
  author: Author @join(localField: "authorId")
}
type Order @collection(name: "orders") {
  id: ID!
  customer: Author! @snapshot(path: "customer", fields: ["id", "name"]) @join(localField: "customer.id") @read(strategy: SNAPSHOT)
  guests: [Author!]! @snapshot(path: "guests", fields: ["id", "name"]) @join(localField: "guests.id") @read(strategy: SNAPSHOT)
  "A list that may be null: an element that is no document is lost all the same."
  hosts: [Author!] @snapshot(path: "hosts", fields: ["id", "name"]) @join(localField: "hosts.id") @read(strategy: SNAPSHOT)
}
`;
const model = buildWriteModelFromSdl(withDirectiveTypeDefs(SDL));
const file = mongoForFile();

it('repairs an inverse list stored as a lone id, and counts a string, an ObjectId or a date where a required copy goes, or in a list of them (one that may be null too), as missing', async () => {
  const db = file.mongo.freshDb('reconcile_odd_shapes');
  const [ann, book] = [new ObjectId(), new ObjectId()];
  await db.collection('authors').insertOne({ _id: ann, name: 'Ann', bookIds: book });
  await db.collection('books').insertOne({ _id: book, authorId: ann });
  const copy = { id: ann, name: 'Ann' };
  await db.collection('orders').insertMany([
    { customer: 'Ann', guests: [null] },
    { customer: ann, guests: [ann, copy] },
    { customer: new Date(), guests: [copy, 'Ann', new Date()], hosts: [copy, 'Ann'] },
    { customer: copy, guests: [copy], hosts: null },
  ]);
  const report = await reconcile(db, model, { fix: true });
  expect(report.checks.map((check) => [check.coordinate, check.drifted, check.fixed, check.missing, check.dangling])).toEqual([
    ['Order.customer', 0, 0, 3, 0],
    ['Order.guests', 0, 0, 3, 0],
    ['Order.hosts', 0, 0, 1, 0],
    ['Author.books', 1, 1, 0, 0],
  ]);
  expect((await db.collection('authors').findOne({ _id: ann }))?.bookIds).toEqual([book]);
});

it('counts a copy whose key is Extended JSON parsed as plain JSON ({ $oid }) as dangling, and checks the others beside it: no stored _id equals it, and MongoDB would read it in a $in as an operator', async () => {
  const db = file.mongo.freshDb('reconcile_odd_keys');
  const ann = new ObjectId();
  await db.collection('authors').insertOne({ _id: ann, name: 'Ann', bookIds: [] });
  await db.createCollection('books');
  await db.collection('orders').insertMany([
    { customer: { id: ann, name: 'Old name' }, guests: [{ id: { $oid: ann.toHexString() }, name: 'Ann' }] },
    { customer: { id: { $oid: ann.toHexString() }, name: 'Ann' }, guests: [{ id: ann, name: 'Old name' }] },
  ]);
  const report = await reconcile(db, model, { fix: true });
  expect(report.checks.map((check) => [check.coordinate, check.drifted, check.fixed, check.missing, check.dangling])).toEqual([
    ['Order.customer', 1, 1, 0, 1],
    ['Order.guests', 1, 1, 0, 1],
    ['Order.hosts', 0, 0, 0, 0],
    ['Author.books', 0, 0, 0, 0],
  ]);
  const orders = await db.collection('orders').find({}, { sort: { _id: 1 }, projection: { _id: 0 } }).toArray();
  expect(orders).toEqual([
    { customer: { id: ann, name: 'Ann' }, guests: [{ id: { $oid: ann.toHexString() }, name: 'Ann' }] },
    { customer: { id: { $oid: ann.toHexString() }, name: 'Ann' }, guests: [{ id: ann, name: 'Ann' }] },
  ]);
});

it('counts children by a parent key that is Extended JSON parsed as plain JSON, as the gateway joins them: by $eq, where $in would read it as an operator', async () => {
  const teams = buildWriteModelFromSdl(
    withDirectiveTypeDefs(/* GraphQL */ `
      scalar JSON
      type Query { teams: [Team!]! @list }
      type Team @collection(name: "teams") {
        id: ID!
        code: JSON
        members: [Member!]! @join(localField: "code", foreignField: "teamCode")
        memberCount: Int! @counter(of: "Team.members")
      }
      type Member @collection(name: "members") { id: ID! teamCode: JSON }
    `),
  );
  const db = file.mongo.freshDb('reconcile_odd_parent_keys');
  const code = { $oid: '66c000000000000000000001' };
  await db.collection('teams').insertMany([
    { code, memberCount: 2 },
    { code: 'plain', memberCount: 0 },
  ]);
  await db.collection('members').insertMany([{ teamCode: code }, { teamCode: code }, { teamCode: 'plain' }]);
  const report = await reconcile(db, teams, { fix: true });
  expect(report.checks.map((check) => [check.coordinate, check.drifted, check.fixed])).toEqual([['Team.memberCount', 1, 1]]);
  expect((await db.collection('teams').find({}, { sort: { _id: 1 }, projection: { _id: 0, memberCount: 1 } }).toArray()).map((team) => team.memberCount)).toEqual([2, 1]);
});
