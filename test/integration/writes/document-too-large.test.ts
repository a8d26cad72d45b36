import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * MongoDB stores no document past 16 MiB. A write that would make one (a note grown past it, a new one
 * too large) is the client's doing: BAD_USER_INPUT, nothing written, and every document still reads.
 */
const TYPE_DEFS = /* GraphQL */ `
  type Query { notes(first: Int = 20): [Note!]! @list }
  type Mutation {
    createNote(input: NoteInput!): Note! @create
    updateNote(id: ID!, input: NotePatch!): Note! @update
  }
  type Note @collection(name: "notes") { id: ID! title: String! body: String appendix: String }
  input NoteInput { title: String! body: String }
  input NotePatch { appendix: String }
`;

const note = new ObjectId();
const NINE_MIB = 'x'.repeat(9 * 1024 * 1024);
let s: SdlGateway;
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs: TYPE_DEFS,
    dbPrefix: 'document_too_large',
    prepare: async (db) => void (await db.collection('notes').insertOne({ _id: note, title: 'big', body: NINE_MIB })),
    gateway: { onWarning: () => undefined },
  });
}, 60_000);
afterAll(() => s?.stop());

it('refuses an update whose document would pass 16 MiB with BAD_USER_INPUT, and keeps the note as it was', async () => {
  const result = await s.gateway.execute({ query: 'mutation($id: ID!, $text: String!) { updateNote(id: $id, input: { appendix: $text }) { id } }', variables: { id: note.toHexString(), text: NINE_MIB } });
  expect(result.errors?.map((error) => [error.extensions?.code, error.message])).toEqual([
    ['BAD_USER_INPUT', "Mutation.updateNote: a document this write stores would be larger than MongoDB's 16 MB limit, so nothing was written; keep growing lists in their own collection (@join) rather than in the document"],
  ]);
  expect(await s.db.collection('notes').countDocuments({ appendix: { $exists: true } })).toBe(0);
  const read = await s.gateway.execute({ query: '{ notes { title } }' });
  expect(read).toMatchObject({ data: { notes: [{ title: 'big' }] } });
  expect(read.errors).toBeUndefined();
});
