import { ObjectId } from 'mongodb';
import type { Viewer } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A mutation's write returns the document its counter update touches when the selection reads that
 * document without a `$lookup` (joinsById), and the join then reads nothing. Whether it does depends on
 * the role: a lookup into a type the role may not read is left out of its projection. The choice is
 * remembered per plan, which roles share, so it is remembered per role too: a member's choice (the post
 * read by its join, with the lookup) reused for a guest would cost the guest that read again.
 */
const typeDefs = /* GraphQL */ `
  type Query {
    posts: [Post!]! @list(sort: "title")
  }
  type Mutation {
    createNote(input: NoteInput!): Note! @create
  }
  type User @collection(name: "users") @access(roles: ["member"], allow: [READ]) {
    id: ID!
    name: String!
  }
  type Post @collection(name: "posts") @access(roles: ["member", "guest"], allow: [READ]) {
    id: ID!
    title: String!
    noteCount: Int! @counter(of: "Post.notes")
    notes: [Note!]! @join(localField: "_id", foreignField: "postId")
    editor: User @join(localField: "editorId") @read(strategy: LOOKUP)
  }
  type Note @collection(name: "notes") @access(roles: ["member", "guest"], allow: [READ, CREATE]) {
    id: ID!
    text: String!
    postId: ID
    post: Post @join(localField: "postId")
  }
  input NoteInput {
    text: String!
    postId: ID
  }
`;

const editor = new ObjectId('0000000000000000000000e1');
const post = new ObjectId('0000000000000000000000f1');
const viewer = (role: string): Viewer => ({ role, roles: [role], anonymous: false, subject: role, claims: { sub: role } });
const CREATE_NOTE = `mutation Note($postId: ID) { createNote(input: { text: "seen", postId: $postId }) { text post { title editor { name } } } }`;

let subject: SdlGateway;
beforeAll(async () => {
  subject = await startSdlGateway({
    typeDefs,
    dbPrefix: 'returned_by_role',
    prepare: async (db) => {
      await db.collection('users').insertOne({ _id: editor, name: 'Edith' });
      await db.collection('posts').insertOne({ _id: post, title: 'Plans', noteCount: 0, editorId: editor });
      await db.collection('notes').createIndex({ postId: 1 });
    },
    gateway: { onWarning: () => undefined },
  });
}, 60_000);
afterAll(async () => {
  await subject?.stop();
});

it("a guest's post comes from the write after a member ran the same mutation document, whose post was read with its lookup", async () => {
  const run = (role: string) => subject.gateway.execute({ query: CREATE_NOTE, variables: { postId: post.toHexString() } }, { viewer: viewer(role) });
  const asMember = await run('member');
  expect(asMember.errors).toBeUndefined();
  expect(asMember.data).toEqual({ createNote: { text: 'seen', post: { title: 'Plans', editor: { name: 'Edith' } } } });
  // The member's selection looks the editor up: the post is read by its join, with the $lookup, after the writes.
  expect(asMember.cost?.fields?.['Note.post']).toMatchObject({ strategy: 'join', roundTrips: 1, documents: 1 });
  expect(asMember.cost?.fields?.['Post.editor']).toMatchObject({ strategy: 'lookup', roundTrips: 0, documents: 1 });

  const asGuest = await run('guest');
  expect(asGuest.data).toEqual({ createNote: { text: 'seen', post: { title: 'Plans', editor: null } } });
  expect(asGuest.errors?.map((error) => [error.path, error.extensions?.code])).toEqual([[['createNote', 'post', 'editor'], 'FORBIDDEN']]);
  // The counter's update returned the post: its join reads nothing.
  expect(asGuest.cost?.fields?.['Note.post']).toMatchObject({ strategy: 'join', roundTrips: 0 });
  expect(asGuest.cost?.roundTrips).toBe(asMember.cost!.roundTrips - 1);
});
