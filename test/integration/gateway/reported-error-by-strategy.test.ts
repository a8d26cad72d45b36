import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * Where several nulls a non-null type forbids reach one position, docjoin's executor reports the first
 * in the response, whichever strategy read each field and whichever answer came back first: a parent
 * without a key has its null at once, a dangling key only after its batch, and a lookup brings both in
 * one reply. So the same operation names the same error by join and by lookup.
 */
const SDL = /* GraphQL */ `
  type Query { books: [Book!]! @list }
  type Book @collection(name: "books") { id: ID! author: Person! @join(localField: "authorId") }
  type Person @collection(name: "people") { id: ID! name: String! }
`;

let subject: SdlGateway;
beforeAll(async () => {
  subject = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'reported_error_by_strategy',
    gateway: { onWarning: () => undefined },
    prepare: async (db) => {
      await db.collection('people').insertOne({ _id: 1 as never, name: 'One' });
      await db.collection('books').insertMany([{ _id: 'a' as never, authorId: 42 }, { _id: 'b' as never }]);
    },
  });
}, 60_000);
afterAll(() => subject?.stop());

it.each(['', 'Book.author=lookup'])('reports the first null in the response, books.0 (a dangling key), not the one met first (strategy header "%s")', async (strategyHeader) => {
  const { data, errors } = await subject.gateway.execute({ query: '{ books { id author { name } } }' }, { strategyHeader });
  expect({ data, errors: errors?.map((error) => ({ message: error.message, path: error.path })) }).toEqual({
    data: null,
    errors: [{ message: 'Cannot return null for non-nullable field Book.author.', path: ['books', 0, 'author'] }],
  });
});
