import { ObjectId, type CommandStartedEvent } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * graphql-js answers as soon as a non-null field fails, while the other branches of the operation go on
 * reading. The answer waits for those reads, so `extensions.cost` counts every command the operation
 * sent, and none is sent after it.
 */
const SDL = /* GraphQL */ `
  type Query {
    authors(first: Int = 20): [Author!]! @list
    authorsPage(first: Int = 10, after: String): AuthorConnection! @list
  }
  type Author @collection(name: "authors") {
    id: ID!
    name: String!
    books(first: Int = 5): [Book!]! @join(localField: "_id", foreignField: "authorId", sort: "pages")
  }
  type Book @collection(name: "books") { id: ID! title: String! pages: Int! author: Author @join(localField: "authorId") }
  type AuthorConnection { edges: [AuthorEdge!]! pageInfo: PageInfo! totalCount: Int! }
  type AuthorEdge { cursor: String! node: Author! }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
`;
const oid = (n: number) => new ObjectId(n.toString(16).padStart(24, '0'));

let subject: SdlGateway;
beforeAll(async () => {
  subject = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'cost_after_early_answer',
    prepare: async (db) => {
      await db.collection('authors').insertMany([1, 2, 3].map((n) => ({ _id: oid(n), name: `author ${n}` })));
      await db.collection('books').insertMany([1, 2, 3].flatMap((a) => [1, 2].map((b) => ({ _id: oid(10 * a + b), title: `book ${a}.${b}`, pages: b, authorId: oid(a) }))));
      await db.collection('books').createIndex({ authorId: 1, pages: 1, _id: 1 });
    },
    gateway: { onWarning: () => undefined, checkEstimates: false },
  });
}, 60_000);
afterAll(() => subject?.stop());

/** The finds and aggregates sent while `run` runs, and those sent in the 50 ms after it. */
async function commandsOf<T>(run: () => Promise<T>): Promise<{ result: T; during: string[]; after: string[] }> {
  const during: string[] = [];
  const after: string[] = [];
  let answered = false;
  const onStarted = (event: CommandStartedEvent) => {
    if (event.commandName === 'find' || event.commandName === 'aggregate') (answered ? after : during).push(`${event.commandName} ${String(event.command[event.commandName])}`);
  };
  subject.client.on('commandStarted', onStarted);
  try {
    const result = await run();
    answered = true;
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { result, during, after };
  } finally {
    subject.client.off('commandStarted', onStarted);
  }
}

it("counts the reads of the branches still running when a root field fails, and answers once they are done", async () => {
  const query = '{ authors { books { author { books { title } } } } authorsPage(after: "garbage") { totalCount } }';
  const { result, during, after } = await commandsOf(() => subject.gateway.execute({ query }));
  expect(result.errors?.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
  // The authors, their books, and the books' authors' books (the books' authors are the authors already read).
  expect(during.sort()).toEqual(['aggregate books', 'aggregate books', 'find authors']);
  expect(after).toEqual([]);
  expect(result.cost).toMatchObject({ roundTrips: 3, documents: 3 + 6 + 6 });
});
