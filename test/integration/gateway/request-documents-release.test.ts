import type { ResponsePath } from 'graphql';
import { ObjectId } from 'mongodb';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A request's loaders, and the documents they hold, are dropped once its response is built
 * (context/release-documents-plugin.ts): a context that outlives its response (kept by a plugin, or by
 * Apollo's `gateway` seam until V8's next full collection) keeps no documents. The proof: after the
 * response, the same key loads from MongoDB again.
 */
const SDL = /* GraphQL */ `
  type Query { posts(first: Int = 10): [Post!]! @list }
  type Post @collection(name: "posts") {
    id: ID!
    title: String!
    author: Author @join(localField: "authorId")
  }
  type Author @collection(name: "authors") {
    id: ID!
    name: String!
  }
`;

const authorId = new ObjectId();
let fixture: SdlGateway;

beforeAll(async () => {
  fixture = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'release_documents',
    prepare: async (db) => {
      await db.collection('authors').insertOne({ _id: authorId, name: 'Ada' });
      await db.collection('posts').insertMany([
        { _id: new ObjectId(), title: 'first', authorId },
        { _id: new ObjectId(), title: 'second', authorId },
      ]);
    },
  });
});

afterAll(async () => {
  await fixture?.stop();
});

it('forgets the documents a request loaded once its response is built', async () => {
  const context = fixture.gateway.createContext();
  const roundTrips = () => context.ledger.report({ estimatedRoundTrips: 0, estimatedDocuments: 0, commands: false }).roundTrips;
  const response = await fixture.gateway.apollo.executeOperation({ query: '{ posts { title author { name } } }' }, { contextValue: context });
  if (response.body.kind !== 'single') throw new Error('expected a single result');
  expect(response.body.singleResult.errors).toBeUndefined();
  expect(response.body.singleResult.data).toEqual({ posts: [{ title: 'first', author: { name: 'Ada' } }, { title: 'second', author: { name: 'Ada' } }] });
  expect(roundTrips()).toBe(2);

  // The author was read for posts.0.author: kept, it would answer a load below that field from the cache.
  const belowFirstAuthor: ResponsePath = { prev: { prev: { prev: { prev: undefined, key: 'posts', typename: 'Query' }, key: 0, typename: undefined }, key: 'author', typename: 'Post' }, key: 'name', typename: 'Author' };
  const author = await context.loaders.byKey('authors', '_id').load({ key: authorId, projection: new Map([['name', 1]]), path: belowFirstAuthor, field: 'Author.name' });
  expect(author).toEqual({ _id: authorId, name: 'Ada' });
  expect(roundTrips()).toBe(3);
});
