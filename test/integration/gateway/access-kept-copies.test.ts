import { ObjectId } from 'mongodb';
import type { Viewer } from 'docjoin';
import { answerAs, forbidden, startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * What a copy a relation keeps shows, read through another field: the document a hidden key names, the
 * rows a join orders by a value hidden inside them. And what it does not: a field that only reads a
 * kept copy (an alias, one of another type) adds nothing to the relation's own checks.
 */
const typeDefs = /* GraphQL */ `
  type Query {
    posts(first: Int = 20, orderBy: PostOrder): [Post!]! @list(sort: "title")
  }
  type Mutation {
    updateComment(id: ID!, input: CommentPatch!): Comment! @update
  }
  input CommentPatch {
    text: String
  }
  enum PostOrder {
    AUTHOR_NAME @sort(by: "author.name")
  }
  type Post @collection(name: "posts") @access(roles: ["member"], allow: [READ], hide: ["editorId", "authorId"]) @access(roles: ["admin", "writer"], allow: [READ]) {
    id: ID!
    title: String!
    editorId: ID @path(path: "editorId")
    "The document the hidden editorId names, kept in the post."
    editor: User @embedded(path: "editorCopy") @join(localField: "editorId") @read(strategy: EMBEDDED)
    editorView: User @embedded(path: "editorCopy")
    editorName: String @path(path: "editorCopy.name")
    authorId: ID @path(path: "author.id")
    author: User @snapshot(path: "author", fields: ["id", "name"]) @join(localField: "author.id") @read(strategy: SNAPSHOT)
    authorName: String @path(path: "author.name")
    recent: [Comment!]! @embedded @join(collection: "comments", localField: "_id", foreignField: "postId", sort: "-at", limit: 2) @read(strategy: EMBEDDED)
    recentAgain: [Comment!]! @embedded(path: "recent")
    recentAsNotes: [Note!]! @embedded(path: "recent")
    "The comment of highest rank, which members may not see."
    topRanked: [Comment!]! @embedded @join(collection: "comments", localField: "_id", foreignField: "postId", sort: "-meta.rank", limit: 1) @read(strategy: EMBEDDED)
  }
  type Comment
    @collection(name: "comments")
    @access(roles: ["member", "writer", "admin"], allow: [READ])
    @access(roles: ["member", "writer"], allow: [UPDATE], where: [{ field: "by", claim: "sub" }]) {
    id: ID!
    text: String!
    by: String!
    at: String!
    postId: ID!
    meta: CommentMeta @embedded
    author: User @snapshot(path: "author", fields: ["id", "name"]) @join(localField: "author.id") @read(strategy: SNAPSHOT)
  }
  type CommentMeta @access(roles: ["member", "writer"], allow: [READ], hide: ["rank"]) {
    rank: Int
    tag: String
  }
  type User @collection(name: "users") @access(roles: ["member"], allow: [READ], hide: ["email"]) @access(roles: ["admin", "writer"], allow: [READ]) {
    id: ID!
    name: String!
    email: String
  }
  type Note @collection(name: "notes") @access(roles: ["member", "writer", "admin"], allow: [READ], hide: ["by"]) {
    id: ID
    text: String
    by: String
  }
`;

const post = new ObjectId('0000000000000000000000a1');
const bob = new ObjectId('0000000000000000000000b1');
const annLow = new ObjectId('0000000000000000000000c1');
const annHigh = new ObjectId('0000000000000000000000c2');
const bobMid = new ObjectId('0000000000000000000000c3');
const ann: Viewer = { role: 'member', roles: ['member'], anonymous: false, subject: 'ann', claims: { sub: 'ann' } };
/** Sees every key of a post, but not a comment's rank. */
const writer: Viewer = { ...ann, role: 'writer', roles: ['writer'] };
const admin: Viewer = { role: 'admin', roles: ['admin'], anonymous: false, subject: undefined, claims: {} };

let subject: SdlGateway;
beforeAll(async () => {
  subject = await startSdlGateway({
    typeDefs,
    dbPrefix: 'access_kept_copies',
    prepare: async (db) => {
      const author = { id: bob, name: 'Bob' };
      const comments = [
        { _id: annLow, postId: post, text: 'ann low', by: 'ann', at: '2026-01-01', meta: { rank: 1, tag: 't' }, author },
        { _id: annHigh, postId: post, text: 'ann high', by: 'ann', at: '2026-01-02', meta: { rank: 99, tag: 't' }, author },
        { _id: bobMid, postId: post, text: 'bob mid', by: 'bob', at: '2026-01-03', meta: { rank: 50, tag: 't' }, author },
      ];
      await db.collection('users').insertOne({ _id: bob, name: 'Bob', email: 'bob@example.com' });
      await db.collection('comments').insertMany(comments);
      await db.collection('comments').createIndex({ postId: 1, at: -1, _id: -1 });
      await db.collection('comments').createIndex({ postId: 1, 'meta.rank': -1, _id: -1 });
      await db.createCollection('notes');
      await db.collection('posts').insertOne({ _id: post, title: 'p', editorId: bob, editorCopy: { _id: bob, name: 'Bob' }, author, recent: [comments[2], comments[1]], topRanked: [comments[1]] });
      await db.collection('posts').createIndex({ title: 1, _id: 1 });
      await db.collection('posts').createIndex({ 'author.name': 1, _id: 1 });
    },
  });
}, 60_000);
afterAll(async () => {
  await subject?.stop();
});

const answer = (query: string, viewer: Viewer = ann) => answerAs(subject, query, viewer);

it('a copy of the document a hidden key names shows that key: refused through every field over it, as the relation is', async () => {
  expect(await answer('{ posts { editor { name } } }')).toEqual(forbidden('Post.editor joins by Post.editorId, which is hidden from role "member"'));
  const byEditor = 'Post.editor (a copy of User at "editorCopy"), kept by Post.editorId, which is hidden from role "member"';
  expect(await answer('{ posts { editorView { name } } }')).toEqual(forbidden(`Post.editorView reads ${byEditor}`));
  expect(await answer('{ posts { editorName } }')).toEqual(forbidden(`Post.editorName reads ${byEditor}`));
  // A snapshot is the document its key names too: a value inside it, or an order by one, shows which.
  const byAuthor = 'Post.author (a copy of User at "author"), kept by Post.authorId, which is hidden from role "member"';
  expect(await answer('{ posts { authorName } }')).toEqual(forbidden(`Post.authorName reads ${byAuthor}`));
  expect(await answer('{ posts(orderBy: AUTHOR_NAME) { title } }')).toEqual(forbidden(`Query.posts sorts by ${byAuthor}`));
  expect(await answer('{ posts(orderBy: AUTHOR_NAME) { editorView { name } editorName authorName } }', admin)).toEqual({ posts: [{ editorView: { name: 'Bob' }, editorName: 'Bob', authorName: 'Bob' }] });
});

it('a field that only reads a kept copy adds nothing to the checks of the relation that keeps it', async () => {
  // Beside an alias of the same type, the copies inside the comments (their author's, whose type hides a field not copied) are the comments' own.
  expect(await answer('{ posts { recent { text author { name } } recentAgain { text } } }')).toEqual({
    posts: [{ recent: [{ text: 'bob mid', author: { name: 'Bob' } }, { text: 'ann high', author: { name: 'Bob' } }], recentAgain: [{ text: 'bob mid' }, { text: 'ann high' }] }],
  });
  // Beside an alias of another type, the comments are read under Comment's rules, not Note's.
  expect(await answer('{ posts { recent { by } } }')).toEqual({ posts: [{ recent: [{ by: 'bob' }, { by: 'ann' }] }] });
  // The alias itself reads the comments whole as notes: everything they hold, their hidden rank too.
  expect(await answer('{ posts { recentAsNotes { text } } }')).toEqual(
    forbidden('Post.recentAsNotes reads Comment.meta (a copy of CommentMeta at "meta"), which holds fields hidden from role "member"'),
  );
});

it("a write's report withholds the parents keeping the top rows by a value hidden inside them (Comment.meta's rank)", async () => {
  expect(await answer('{ posts { topRanked { text } } }', writer)).toEqual(forbidden('Post.topRanked sorts by CommentMeta.rank, which is hidden from role "writer"'));
  const edit = async (id: ObjectId) => (await subject.gateway.execute({ query: `mutation { updateComment(id: "${id.toHexString()}", input: { text: "edited" }) { text } }` }, { viewer: writer })).cost?.writes;
  const low = await edit(annLow);
  const high = await edit(annHigh);
  expect(low).toMatchObject({ documentsModified: 1, fanOut: { comments: 1 }, withheld: ['posts'] });
  expect(high).toEqual(low);
  expect((await subject.db.collection('posts').findOne({ _id: post }))?.topRanked.map((comment: { text: string }) => comment.text)).toEqual(['edited']);
});
