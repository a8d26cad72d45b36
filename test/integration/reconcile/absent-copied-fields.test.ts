import { ObjectId } from 'mongodb';
import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { reconcile } from '../../../src/reconcile/reconcile';
import { mongoForFile } from '../../support/test-mongo';

/**
 * A source without a copied field (an author with no bio): the gateway's writes copy it as null, and
 * GraphQL answers null either way. Null and absent are the same to reconcile, so such a copy is no drift,
 * and a stale copy is set to null once, after which a second run finds nothing.
 */
const SDL = /* GraphQL */ `type Query { books: [Book!]! @list }
type Book @collection(name: "books") {
  id: ID!
  author: Author @snapshot(path: "author", fields: ["id", "name", "bio"]) @join(localField: "author.id") @read(strategy: SNAPSHOT)
}
type Author @collection(name: "authors") { id: ID! name: String! bio: String }
`;
const model = buildWriteModelFromSdl(withDirectiveTypeDefs(SDL));
const file = mongoForFile();

it('takes a null copy of a field the source lacks for what it is, and repairs a stale one to null in one run', async () => {
  const db = file.mongo.freshDb('reconcile_absent_copied');
  const [quiet, nullBio] = [new ObjectId(), new ObjectId()];
  await db.collection('authors').insertMany([
    { _id: quiet, name: 'Quiet' },
    { _id: nullBio, name: 'Null', bio: null },
  ]);
  await db.collection('books').insertMany([
    { author: { id: quiet, name: 'Quiet', bio: null } },
    { author: { id: nullBio, name: 'Null' } },
    { author: { id: quiet, name: 'Quiet', bio: 'an old bio' } },
  ]);
  const fixed = await reconcile(db, model, { fix: true });
  expect(fixed.checks.map((check) => [check.coordinate, check.drifted, check.fixed])).toEqual([['Book.author', 1, 1]]);
  const again = await reconcile(db, model, { fix: true });
  expect(again.checks.map((check) => [check.coordinate, check.drifted, check.fixed])).toEqual([['Book.author', 0, 0]]);
  const books = await db.collection('books').find({}, { sort: { _id: 1 } }).toArray();
  expect(books.map((book) => ('bio' in book.author ? book.author.bio : 'absent'))).toEqual([null, 'absent', null]);
});

const ARRAY_SDL = /* GraphQL */ `type Query { posts: [Post!]! @list }
type Post @collection(name: "posts") {
  id: ID!
  recentComments: [Comment!]! @embedded @join(collection: "comments", localField: "_id", foreignField: "postId", sort: "_id", limit: 3) @read(strategy: EMBEDDED)
}
type Comment @collection(name: "comments") {
  id: ID!
  text: String!
  author: Author @snapshot(path: "author", fields: ["id", "name", "bio"]) @join(localField: "author.id") @read(strategy: SNAPSHOT)
}
type Author @collection(name: "authors") { id: ID! name: String! bio: String }
`;

it('compares the copies inside a bounded array the same way: a null copy and an absent one of a field the source lacks agree', async () => {
  const db = file.mongo.freshDb('reconcile_absent_in_array');
  const [quiet, post, comment] = [new ObjectId(), new ObjectId(), new ObjectId()];
  await db.collection('authors').insertOne({ _id: quiet, name: 'Quiet' });
  await db.collection('comments').insertOne({ _id: comment, postId: post, text: 'hi', author: { id: quiet, name: 'Quiet', bio: null } });
  await db.collection('posts').insertOne({ _id: post, recentComments: [{ _id: comment, postId: post, text: 'hi', author: { id: quiet, name: 'Quiet' } }] });
  const report = await reconcile(db, buildWriteModelFromSdl(withDirectiveTypeDefs(ARRAY_SDL)));
  expect(report.checks.map((check) => [check.coordinate, check.drifted])).toEqual([
    ['Post.recentComments.author', 0],
    ['Comment.author', 0],
    ['Post.recentComments', 0],
  ]);
});
