import { ObjectId } from 'mongodb';
import type { GraphQLResolveInfo } from 'graphql';
import type { GatewayContext } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A hand-written resolver's `context.documents.findConnection` pages in a total order whatever sort it
 * is given: parsed or as a string, `_id` ends it, so ties are neither skipped nor repeated, and an empty
 * parsed sort pages by `_id`.
 */
const TYPE_DEFS = /* GraphQL */ `
  type Query {
    byName(first: Int, after: String): PersonConnection!
    byNameParsed(first: Int, after: String): PersonConnection!
    unordered(first: Int, after: String): PersonConnection!
  }
  type Person @collection(name: "people") { id: ID! name: String! }
  type PersonConnection { edges: [PersonEdge!]! pageInfo: PageInfo! }
  type PersonEdge { cursor: String! node: Person! }
  type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
`;

type PageArgs = { first?: number | null; after?: string | null };
const connection =
  (sort: string | Array<{ path: string; direction: 1 | -1 }>) =>
  (_parent: unknown, args: PageArgs, context: GatewayContext, info: GraphQLResolveInfo) =>
    context.documents.findConnection(info, 'Person', { sort, first: args.first ?? null, after: args.after ?? null });

const people = ['a', 'b', 'b', 'b', 'c'].map((name, index) => ({ _id: new ObjectId(`00000000000000000000000${index + 1}`), name }));
let s: SdlGateway;
beforeAll(async () => {
  s = await startSdlGateway({
    typeDefs: TYPE_DEFS,
    dbPrefix: 'find_connection',
    prepare: async (db) => {
      await db.collection('people').insertMany(people);
      await db.collection('people').createIndex({ name: 1, _id: 1 });
    },
    gateway: {
      resolvers: { Query: { byName: connection('name'), byNameParsed: connection([{ path: 'name', direction: 1 }]), unordered: connection([]) } },
    },
  });
}, 60_000);
afterAll(() => s?.stop());

type Page = { edges: Array<{ node: { id: string } }>; pageInfo: { hasNextPage: boolean; endCursor: string | null } };

/** The ids a walk of pages of one item finds, or the codes of the error that stopped it. */
async function walk(field: string): Promise<unknown> {
  const seen: string[] = [];
  let after: string | null = null;
  for (let page = 0; page <= people.length; page++) {
    const result = await s.gateway.execute({ query: `query ($after: String) { ${field}(first: 1, after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`, variables: { after } });
    if (result.errors) return result.errors.map((error) => error.extensions?.code);
    const { edges, pageInfo } = (result.data as Record<string, Page>)[field]!;
    seen.push(...edges.map((edge) => edge.node.id));
    if (!pageInfo.hasNextPage) break;
    after = pageInfo.endCursor;
  }
  return seen;
}

it.each(['byName', 'byNameParsed', 'unordered'])('%s pages through every person once, ties broken by _id', async (field) => {
  expect(await walk(field)).toEqual(people.map((person) => person._id.toHexString()));
});
