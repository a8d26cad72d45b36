import { commandsSentDuring } from '../../support/commands-sent';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A gateway started without checking the database (validateDatabase: false, as `docjoin serve` runs an
 * embedded server it has not seeded) still asks at startup whether the server runs transactions: its
 * first mutation sends only the commands extensions.cost counts.
 */
const SDL = /* GraphQL */ `
  type Query { notes(first: Int = 20): [Note!]! @list(sort: "title") }
  type Mutation { createNote(input: NoteInput!): Note! @create }
  input NoteInput { title: String! }
  type Note @collection(name: "notes") { id: ID! title: String! }
`;

let subject: SdlGateway;
beforeAll(async () => {
  subject = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'first_mutation_unvalidated',
    prepare: async (db) => {
      await db.createCollection('notes');
      await db.collection('notes').createIndex({ title: 1, _id: 1 });
    },
    gateway: { validateDatabase: false, onWarning: () => undefined, checkEstimates: false },
  });
}, 60_000);
afterAll(() => subject?.stop());

it('sends, in the first mutation of a gateway started without validating the database, only commands its cost report counts', async () => {
  const { sent, result } = await commandsSentDuring(subject.client, () => subject.gateway.execute({ query: 'mutation { createNote(input: { title: "a" }) { title } }' }));
  expect(result.errors).toBeUndefined();
  expect(sent).not.toContain('hello');
  expect(sent.length).toBe(result.cost!.roundTrips);
});
