import { ObjectId } from 'mongodb';
import type { Viewer } from 'docjoin';
import { startSdlGateway, startupOutcome, type SdlGateway } from '../../support/sdl-gateway';

/**
 * `@access` conditions on constants (`{ field: "published", equals: true }`): the same filter inside
 * MongoDB on every read of the type, whatever the path, as a claim's; a create takes the constant as a
 * preset; a constant the field's type cannot hold is refused at startup, since it would match no row.
 */
const TYPE_DEFS = /* GraphQL */ `
  type Query {
    posts(first: Int = 20, after: ID): [Post!]! @list(sort: "title")
    post(id: ID!): Post @find
    authors(first: Int = 20): [Author!]! @list(sort: "name")
  }
  type Mutation { createPost(input: PostInput!): Post! @create }
  enum Status { DRAFT PUBLISHED }
  type Author @collection(name: "authors") @access(roles: ["anonymous", "editor"], allow: [READ]) {
    id: ID!
    name: String!
    posts(first: Int = 20): [Post!]! @join(localField: "_id", foreignField: "authorId", sort: "title")
  }
  type Post @collection(name: "posts")
    @access(roles: ["anonymous"], allow: [READ], where: [{ field: "published", equals: true }])
    @access(roles: ["editor"], allow: [READ, CREATE], where: [{ field: "status", equals: DRAFT }, { field: "editor", claim: "sub" }]) {
    id: ID!
    title: String!
    published: Boolean!
    status: Status
    editor: String
    author: Author @join(localField: "authorId")
  }
  input PostInput { title: String! published: Boolean! status: Status author: ID }
`;

const ann = new ObjectId();
const hidden = new ObjectId();
const anonymous: Viewer = { role: 'anonymous', roles: ['anonymous'], anonymous: true, subject: undefined, claims: {} };
const editor: Viewer = { role: 'editor', roles: ['editor'], anonymous: false, subject: 'ed', claims: { sub: 'ed' } };
let s: SdlGateway;

beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs: TYPE_DEFS,
    dbPrefix: 'access_constants',
    prepare: async (db) => {
      await db.collection('authors').insertOne({ _id: ann, name: 'Ann' });
      await db.collection('posts').insertMany([
        { title: 'a-live', published: true, status: 'PUBLISHED', editor: 'ed', authorId: ann },
        { _id: hidden, title: 'b-draft', published: false, status: 'DRAFT', editor: 'ed', authorId: ann },
        { title: 'c-other-draft', published: false, status: 'DRAFT', editor: 'someone', authorId: ann },
      ]);
      await db.collection('posts').createIndexes([{ key: { authorId: 1 } }, { key: { published: 1 } }, { key: { status: 1, editor: 1 } }]);
    },
    gateway: { onWarning: () => undefined },
  });
}, 60_000);
afterAll(() => s?.stop());

const titles = (data: unknown, path: 'posts' | 'authors'): string[] =>
  path === 'posts' ? (data as { posts: Array<{ title: string }> }).posts.map((post) => post.title) : (data as { authors: Array<{ posts: Array<{ title: string }> }> }).authors.flatMap((author) => author.posts.map((post) => post.title));

it('filters every read of the type by the constant: a root list, a find by id, a reverse join', async () => {
  const list = await s.gateway.execute({ query: '{ posts { title } }' }, { viewer: anonymous });
  expect(titles(list.data, 'posts')).toEqual(['a-live']);
  expect((await s.gateway.execute({ query: `{ post(id: "${hidden}") { title } }` }, { viewer: anonymous })).data).toEqual({ post: null });
  expect(titles((await s.gateway.execute({ query: '{ authors { posts { title } } }' }, { viewer: anonymous })).data, 'authors')).toEqual(['a-live']);
  // A constant and a claim together: the editor's own drafts.
  expect(titles((await s.gateway.execute({ query: '{ posts { title } }' }, { viewer: editor })).data, 'posts')).toEqual(['b-draft']);
});

it('takes the constant as a create preset, and refuses an input giving another value', async () => {
  const created = await s.gateway.execute({ query: 'mutation { createPost(input: { title: "d-new", published: false }) { title status editor } }' }, { viewer: editor });
  expect(created.errors).toBeUndefined();
  expect(created.data).toEqual({ createPost: { title: 'd-new', status: 'DRAFT', editor: 'ed' } });
  const refused = await s.gateway.execute({ query: 'mutation { createPost(input: { title: "e-live", published: true, status: PUBLISHED }) { title } }' }, { viewer: editor });
  expect(refused.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([['FORBIDDEN', 'role "editor" may not create Post with another status than "DRAFT"']]);
  expect(await s.db.collection('posts').countDocuments({ title: 'e-live' })).toBe(0);
});

describe('a constant the field cannot hold is refused at startup, in one line naming the type, the field and the fix', () => {
  const outcome = (where: string) =>
    startupOutcome(
      `type Query { notes(first: Int = 20): [Note!]! @list }
       enum Level { LOW HIGH }
       type Note @collection(name: "notes") @access(roles: ["anonymous"], allow: [READ], where: [${where}]) { id: ID! done: Boolean! level: Level! at: DateTime owner: ID }`,
      'access_constants_refused',
      ['notes'],
    );
  it.each([
    ['{ field: "done", equals: "true" }', 'where: Note.done is a Boolean, and equals: "true" is no boolean'],
    ['{ field: "level", equals: MEDIUM }', 'where: Note.level is a Level, and equals: "MEDIUM" is none of its values LOW, HIGH'],
    ['{ field: "at", equals: "2026-01-01" }', 'where: Note.at is a DateTime; equals compares a String, Boolean, Int, Long, Float, enum or id field; compare it with a claim instead'],
    ['{ field: "owner", equals: "ed" }', 'where: Note.owner holds an ObjectId, and equals: "ed" is none; give its 24 hex digits, e.g. equals: "67c000000000000000000001"'],
    ['{ field: "done", equals: true, claim: "sub" }', 'where: { field: "done" } gives both claim and equals; a condition compares the field with one of them'],
    ['{ field: "done" }', 'where: { field: "done" } needs the claim it equals, e.g. claim: "sub", or a constant, e.g. equals: true'],
  ])('%s', async (where, problem) => {
    expect(await outcome(where)).toContain(`Note: @access(roles: ["anonymous"]) ${problem}`);
  });
});

describe('a field holding an array with the constant, which MongoDB equality matches (an array inside an array it does not)', () => {
  const typeDefs = /* GraphQL */ `
    type Query { shelves(first: Int = 20): [Shelf!]! @list }
    type Shelf @collection(name: "shelves") @access(roles: ["anonymous"], allow: [READ]) {
      id: ID!
      picks: [Note!]! @snapshot(path: "picks", fields: ["id", "title", "live"]) @join(localField: "picks.id") @read(strategy: SNAPSHOT)
    }
    type Note @collection(name: "notes") @access(roles: ["anonymous"], allow: [READ], where: [{ field: "live", equals: true }]) {
      id: ID!
      title: String!
      live: Boolean
    }
  `;
  const notes = [
    { _id: new ObjectId(), title: 'plain', live: true },
    { _id: new ObjectId(), title: 'in-array', live: [true] },
    { _id: new ObjectId(), title: 'off', live: false },
    { _id: new ObjectId(), title: 'nested', live: [[true]] },
  ];
  let arrays: SdlGateway;
  beforeAll(async () => {
    arrays = await startSdlGateway({
      typeDefs,
      dbPrefix: 'access_constants_arrays',
      prepare: async (db) => {
        await db.collection('notes').insertMany(notes);
        await db.collection('shelves').insertOne({ picks: notes.map(({ _id, title, live }) => ({ id: _id, title, live })) });
      },
      gateway: { onWarning: () => undefined },
    });
  }, 60_000);
  afterAll(() => arrays?.stop());

  it.each([['snapshot', undefined], ['join', 'Shelf.picks=join']])('the %s shows the rows the rule lets MongoDB match', async (_strategy, strategyHeader) => {
    const result = await arrays.gateway.execute({ query: '{ shelves { picks { title } } }' }, { viewer: anonymous, ...(strategyHeader && { strategyHeader }) });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ shelves: [{ picks: [{ title: 'plain' }, { title: 'in-array' }] }] });
  });
});
