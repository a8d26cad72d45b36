import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A JSON value is stored as the client gives it, so what MongoDB cannot store is the client's error
 * (BAD_USER_INPUT, nothing written), not the server's: a field name with a NUL character, a `_bsontype`
 * field (BSON's type marker), nesting past the 100 levels MongoDB keeps.
 */
const TYPE_DEFS = /* GraphQL */ `
  scalar JSON
  type Query { notes(first: Int = 20): [Note!]! @list }
  type Mutation {
    createNote(input: NoteInput!): Note! @create
    updateNote(id: ID!, input: NotePatch!): Note! @update
  }
  type Note @collection(name: "notes") { id: ID! title: String! meta: JSON extra: JSON @path(path: "deep.extra") }
  input NoteInput { title: String! meta: JSON extra: JSON }
  input NotePatch { meta: JSON extra: JSON }
`;

let served: SdlGateway;
beforeAll(async () => {
  served = await startSdlGateway({ dbPrefix: 'unstorable_json', typeDefs: TYPE_DEFS, prepare: async (db) => void (await db.createCollection('notes')) });
}, 60_000);
afterAll(() => served?.stop());

const CREATE = 'mutation($m: JSON, $x: JSON) { createNote(input: { title: "t", meta: $m, extra: $x }) { id meta } }';
const UPDATE = 'mutation($id: ID!, $m: JSON, $x: JSON) { updateNote(id: $id, input: { meta: $m, extra: $x }) { id } }';
const stored = () => served.db.collection('notes').countDocuments();

/** An object `levels` objects deep, counting itself. */
function nested(levels: number): Record<string, unknown> {
  const top: Record<string, unknown> = {};
  let at = top;
  for (let level = 1; level < levels; level++) at = (at.a = {}) as Record<string, unknown>;
  return top;
}

it.each([
  ['a field name with a NUL character', { m: { x: [{ 'a\u0000b': 1 }] } }, 'input cannot be stored: "meta.x.0" holds a field name with a NUL character'],
  ['a _bsontype field', { m: { _bsontype: 'ObjectId', id: 'x' } }, 'input cannot be stored: "meta" holds a field named _bsontype, which BSON reserves'],
  ['nesting past 100 levels with the document', { m: nested(100) }, 'input cannot be stored: "meta" nests deeper than the 100 levels MongoDB keeps in a document'],
  ['nesting past 100 levels, counted from its path', { x: nested(99) }, 'input cannot be stored: "deep" nests deeper than the 100 levels MongoDB keeps in a document'],
  ['a value 499 levels deep, which the variables hold at 500', { m: nested(499) }, 'input cannot be stored: "meta" nests deeper than the 100 levels MongoDB keeps in a document'],
  ['a value 10,000 levels deep', { m: nested(10_000) }, 'The variables nest more than 500 levels deep (lists and input objects); docjoin accepts at most 500'],
])('a create given %s is BAD_USER_INPUT, nothing written', async (_name, variables, message) => {
  const before = await stored();
  const result = await served.gateway.execute({ query: CREATE, variables: { m: null, x: null, ...variables } });
  expect(result.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([['BAD_USER_INPUT', message]]);
  expect(await stored()).toBe(before);
});

it('takes what MongoDB stores: 100 levels with the document, dots in field names', async () => {
  const meta = { ...nested(99), b: { 'c.d': 1 } };
  const result = await served.gateway.execute({ query: CREATE, variables: { m: meta, x: nested(98) } });
  expect(result.errors).toBeUndefined();
  expect((result.data as { createNote: { meta: unknown } }).createNote.meta).toEqual(meta);
});

it('an update given such a value is BAD_USER_INPUT, the document unchanged', async () => {
  const created = await served.gateway.execute({ query: CREATE, variables: { m: { kept: true }, x: null } });
  const id = (created.data as { createNote: { id: string } }).createNote.id;
  const refused = await served.gateway.execute({ query: UPDATE, variables: { id, m: { x: { _bsontype: 'Code', code: 'x' } }, x: null } });
  expect(refused.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([['BAD_USER_INPUT', 'input.meta cannot be stored: "meta.x" holds a field named _bsontype, which BSON reserves']]);
  const deep = await served.gateway.execute({ query: UPDATE, variables: { id, m: null, x: nested(99) } });
  expect(deep.errors?.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
  expect((await served.db.collection('notes').findOne({}, { sort: { _id: -1 } }))?.meta).toEqual({ kept: true });
});
