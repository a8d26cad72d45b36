import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A directive the project declares for its clients (`@trace` on fields and queries) is part of the
 * schema served, as graphql-js serves it: operations using it run, and introspection lists it. Only
 * docjoin's own directives are left out.
 */
const SDL = /* GraphQL */ `
  "Tags a field for the client's tracing."
  directive @trace(label: String) on FIELD | QUERY
  type Query { notes(first: Int = 20, after: ID): [Note!]! @list }
  type Note @collection(name: "notes") { id: ID! text: String! }
`;
let sdl: SdlGateway;
beforeAll(async () => {
  sdl = await startSdlGateway({ typeDefs: SDL, dbPrefix: 'project_directives', prepare: async (db) => void (await db.collection('notes').insertOne({ text: 'a' })) });
}, 60_000);
afterAll(async () => sdl?.stop());

it('runs operations that use it, on a field and on the query', async () => {
  const result = await sdl.gateway.execute({ query: 'query Traced @trace(label: "q") { notes @trace(label: "x") { text } }' });
  expect({ errors: result.errors, data: result.data }).toEqual({ errors: undefined, data: { notes: [{ text: 'a' }] } });
});

it("lists it in introspection, and none of docjoin's", async () => {
  const result = await sdl.gateway.execute({ query: '{ __schema { directives { name } } }' });
  const names = (result.data as { __schema: { directives: Array<{ name: string }> } }).__schema.directives.map((directive) => directive.name);
  expect(names.sort()).toEqual(['deprecated', 'include', 'oneOf', 'skip', 'specifiedBy', 'trace']);
});
