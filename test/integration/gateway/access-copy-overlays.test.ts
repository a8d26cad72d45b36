import { ObjectId } from 'mongodb';
import type { Viewer } from 'docjoin';
import { answerAs, forbidden, startSdlGateway, startupOutcome, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A copy kept in a parent (an embedded array a join keeps, a snapshot) read through another field laid
 * over it: another relation at its path, of the same type or another, or a stored value inside it. The
 * copy's rows, fields and order are the copied type's, whichever field reads them: the rules of that
 * type decide, and what a join keeps there (the top two comments by a hidden score) shows its sort.
 */
const typeDefs = /* GraphQL */ `
  type Query {
    posts(first: Int = 20): [Post!]! @list(sort: "title")
  }
  type Mutation {
    updateComment(id: ID!, input: CommentPatch!): Comment! @update
  }
  input CommentPatch {
    text: String
  }
  type Post @collection(name: "posts") @access(roles: ["member", "writer", "keyless", "admin"], allow: [READ]) {
    id: ID!
    title: String!
    "The two comments of highest score, a field members may not see."
    topComments: [Comment!]! @embedded @join(collection: "comments", localField: "_id", foreignField: "postId", sort: "-score", limit: 2) @read(strategy: EMBEDDED)
    "The same array, in the same order."
    sameTop: [Comment!]! @embedded(path: "topComments")
    "A value inside it, in its order."
    topTexts: [String!] @path(path: "topComments.text")
    "The same array read as another type, whose rules hide nothing and read every row."
    topAsNotes: [Note!]! @embedded(path: "topComments")
    "The newest comments, in an order members see; members read only their own comments."
    newest: [Reply!]! @embedded @join(collection: "replies", localField: "_id", foreignField: "postId", sort: "-at", limit: 3) @read(strategy: EMBEDDED)
    newestAsNotes: [Note!]! @embedded(path: "newest")
    author: User @snapshot(path: "author", fields: ["id", "name", "email"]) @join(localField: "author.id") @read(strategy: SNAPSHOT)
    authorCard: Card @embedded(path: "author")
  }
  type Comment
    @collection(name: "comments")
    @access(roles: ["member", "writer"], allow: [READ], hide: ["score"])
    @access(roles: ["keyless"], allow: [READ], hide: ["postId"])
    @access(roles: ["writer", "keyless"], allow: [UPDATE], where: [{ field: "by", claim: "sub" }])
    @access(roles: ["admin"], allow: [READ, UPDATE]) {
    id: ID!
    text: String!
    by: String!
    score: Int!
    postId: ID!
  }
  type Reply @collection(name: "replies") @access(roles: ["member"], allow: [READ], where: [{ field: "by", claim: "sub" }]) @access(roles: ["writer", "keyless", "admin"], allow: [READ]) {
    id: ID!
    text: String!
    by: String!
    at: String!
  }
  type Note @collection(name: "notes") @access(roles: ["member", "writer", "keyless", "admin"], allow: [READ]) {
    id: ID
    text: String
    by: String
  }
  type User @collection(name: "users") @access(roles: ["member", "writer", "keyless"], allow: [READ], hide: ["email"]) @access(roles: ["admin"], allow: [READ]) {
    id: ID!
    name: String!
    email: String!
  }
  type Card @collection(name: "cards") @access(roles: ["member", "writer", "keyless", "admin"], allow: [READ]) {
    id: ID
    name: String
    email: String
  }
`;

const post = new ObjectId('0000000000000000000000a1');
const bob = new ObjectId('0000000000000000000000b1');
const annLow = new ObjectId('0000000000000000000000c1');
const bobHigh = new ObjectId('0000000000000000000000c2');
const annMid = new ObjectId('0000000000000000000000c3');
const ann: Viewer = { role: 'member', roles: ['member'], anonymous: false, subject: 'ann', claims: { sub: 'ann' } };
/** Reads every reply (so no copy in posts is read by join for it), and edits its own comments. */
const annWriter: Viewer = { ...ann, role: 'writer', roles: ['writer'] };
/** Sees the scores but not which post a comment is on. */
const annKeyless: Viewer = { ...ann, role: 'keyless', roles: ['keyless'] };
const admin: Viewer = { role: 'admin', roles: ['admin'], anonymous: false, subject: undefined, claims: {} };

let subject: SdlGateway;
beforeAll(async () => {
  subject = await startSdlGateway({
    typeDefs,
    dbPrefix: 'access_copy_overlays',
    prepare: async (db) => {
      const comments = [
        { _id: annLow, postId: post, text: 'ann low', by: 'ann', score: 1 },
        { _id: bobHigh, postId: post, text: 'bob high', by: 'bob', score: 99 },
        { _id: annMid, postId: post, text: 'ann mid', by: 'ann', score: 50 },
      ];
      const replies = [
        { _id: new ObjectId(), postId: post, text: 'ann says', by: 'ann', at: '2026-01-01' },
        { _id: new ObjectId(), postId: post, text: 'bob secret', by: 'bob', at: '2026-01-02' },
      ];
      await db.collection('comments').insertMany(comments);
      await db.collection('comments').createIndex({ postId: 1, score: -1, _id: -1 });
      await db.collection('replies').insertMany(replies);
      await db.collection('replies').createIndex({ postId: 1, at: -1, _id: -1 });
      await db.collection('users').insertOne({ _id: bob, name: 'Bob', email: 'bob@example.com' });
      await db.createCollection('notes');
      await db.createCollection('cards');
      const author = { id: bob, name: 'Bob', email: 'bob@example.com' };
      await db.collection('posts').insertOne({ _id: post, title: 'p', topComments: [comments[1], comments[2]], newest: [replies[1], replies[0]], author });
      await db.collection('posts').createIndex({ title: 1, _id: 1 });
    },
  });
}, 60_000);
afterAll(async () => {
  await subject?.stop();
});

const answer = (query: string, viewer: Viewer) => answerAs(subject, query, viewer);

it('a copy kept in the order of a hidden field is refused through every field over it, as through its own', async () => {
  const kept = 'Post.topComments (a copy of Comment at "topComments"), kept in the order of Comment.score, which is hidden from role "member"';
  expect(await answer('{ posts { topComments { text } } }', ann)).toEqual(forbidden('Post.topComments sorts by Comment.score, which is hidden from role "member"'));
  expect(await answer('{ posts { sameTop { text } } }', ann)).toEqual(forbidden(`Post.sameTop reads ${kept}`));
  expect(await answer('{ posts { topTexts } }', ann)).toEqual(forbidden(`Post.topTexts reads ${kept}`));
  expect(await answer('{ posts { topAsNotes { text } } }', ann)).toEqual(forbidden('Post.topAsNotes reads Post.topComments (a copy of Comment at "topComments"), which holds fields hidden from role "member"'));
  // A join keeps there the rows its key picks: a role that may not see the key may not read them either.
  expect(await answer('{ posts { sameTop { text } } }', annKeyless)).toEqual(forbidden('Post.sameTop reads Post.topComments (a copy of Comment at "topComments"), kept by Comment.postId, which is hidden from role "keyless"'));
  // A role that sees the score reads them all.
  expect(await answer('{ posts { topComments { text } sameTop { text } topTexts topAsNotes { text } } }', admin)).toEqual({
    posts: [{ topComments: [{ text: 'bob high' }, { text: 'ann mid' }], sameTop: [{ text: 'bob high' }, { text: 'ann mid' }], topTexts: ['bob high', 'ann mid'], topAsNotes: [{ text: 'bob high' }, { text: 'ann mid' }] }],
  });
});

it('a copy of rows the role reads in part is read only through its own field, joined with the filter; as another type it is refused', async () => {
  expect(await answer('{ posts { newest { text } } }', ann)).toEqual({ posts: [{ newest: [{ text: 'ann says' }] }] });
  expect(await answer('{ posts { newestAsNotes { text } } }', ann)).toEqual(forbidden('Post.newestAsNotes reads Post.newest (a copy of Reply at "newest"), whose rows role "member" reads only in part'));
  expect(await answer('{ posts { newestAsNotes { text } } }', admin)).toEqual({ posts: [{ newestAsNotes: [{ text: 'bob secret' }, { text: 'ann says' }] }] });
});

it("a snapshot read as another type shows none of the fields the copied type's rules hide", async () => {
  expect(await answer('{ posts { author { name } } }', ann)).toEqual({ posts: [{ author: { name: 'Bob' } }] });
  expect(await answer('{ posts { authorCard { name } } }', ann)).toEqual(forbidden('Post.authorCard reads Post.author (a copy of User at "author"), which holds fields hidden from role "member"'));
  expect(await answer('{ posts { authorCard { name email } } }', admin)).toEqual({ posts: [{ authorCard: { name: 'Bob', email: 'bob@example.com' } }] });
});

it("a write's report withholds the count of the parents keeping the top rows by a hidden field: it would tell whose score ranks higher", async () => {
  const edit = async (id: ObjectId, viewer = annWriter, text = 'edited') => (await subject.gateway.execute({ query: `mutation { updateComment(id: "${id.toHexString()}", input: { text: "${text}" }) { text } }` }, { viewer })).cost?.writes;
  const low = await edit(annLow);
  const mid = await edit(annMid);
  expect(low).toMatchObject({ documentsModified: 1, fanOut: { comments: 1 }, withheld: ['posts'] });
  expect(mid).toEqual(low);
  // Nor, to a role that may not see a comment's post, whether its comment is kept in some post.
  expect(await edit(annLow, annKeyless, 'again')).toMatchObject({ fanOut: { comments: 1 }, withheld: ['posts'] });
  // The copy was still kept true: only the report withholds.
  expect((await subject.db.collection('posts').findOne({ _id: post }))?.topComments.map((comment: { text: string }) => comment.text)).toEqual(['bob high', 'edited']);
});

it('refuses to start where an @access type joined from a collection declares none: its reads there would be scoped by no rule', async () => {
  const salaries = /* GraphQL */ `
    type Query {
      users(first: Int = 20): [User!]! @list(sort: "name")
    }
    type User @collection(name: "users") @access(roles: ["member", "admin"], allow: [READ]) {
      id: ID!
      name: String!
      salaries: [Salary!]! @join(collection: "salaries", localField: "_id", foreignField: "userId")
    }
    type Salary @access(roles: ["admin"], allow: [READ]) {
      id: ID! @path(path: "_id")
      amount: Int!
    }
  `;
  const prepare = async (db: import('mongodb').Db) => {
    await db.collection('users').createIndex({ name: 1, _id: 1 });
    await db.collection('salaries').createIndex({ userId: 1 });
  };
  expect(await startupOutcome(salaries, 'access_uncollected_join', prepare)).toBe(
    'Invalid storage directives:\n  - Salary: User.salaries joins it from the collection "salaries", but Salary has no @collection, so no access rule would scope those reads; add @collection(name: "salaries") to Salary',
  );
  expect(await startupOutcome(salaries.replace('type Salary @access', 'type Salary @collection(name: "salaries") @access'), 'access_collected_join', prepare)).toBe('started');
  // A collection another type declares has that type's rules: a second type joined from it is refused for that, not for lacking one.
  const owned = salaries.replace('type Salary @access(roles: ["admin"], allow: [READ]) {', 'type Pay @collection(name: "salaries") @access(roles: ["admin"], allow: [READ]) { id: ID! amount: Int! }\n    type Salary {');
  expect(await startupOutcome(owned, 'access_owned_join', prepare)).toBe(
    'Invalid storage directives:\n  - User.salaries: joins Salary documents from "salaries", which holds Pay, so neither type\'s rules could be told apart there; join from Salary\'s own collection',
  );
});
