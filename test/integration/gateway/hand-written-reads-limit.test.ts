import type { GraphQLResolveInfo } from 'graphql';
import { ObjectId } from 'mongodb';
import type { GatewayContext } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../../support/sdl-gateway';

/**
 * A hand-written field reading through `context.documents` once per parent costs what no estimate can
 * count, so the round-trip limit, checked against the estimate before execution, is held while the
 * operation runs too: the reads past it are refused with COST_LIMIT_EXCEEDED at the fields that asked,
 * never sent, and the rest answers.
 */
const SDL = /* GraphQL */ `
  type Query { users(first: Int = 10): [User!]! @list }
  type User @collection(name: "users") {
    id: ID!
    name: String!
    "Hand-written: one find per user."
    noteCount: Int
  }
  type Note @collection(name: "notes") { id: ID! owner: String! }
`;
const users = Array.from({ length: 6 }, (_, n) => ({ _id: new ObjectId(`6955b900000000000000010${n}`), name: `u${n}` }));

let fixture: SdlGateway;
beforeAll(async () => {
  fixture = await startSdlGateway({
    typeDefs: SDL,
    dbPrefix: 'hand_written_reads_limit',
    prepare: async (db) => {
      await db.collection('users').insertMany(users);
      await db.collection('notes').insertMany(users.map((user) => ({ owner: user.name })));
      await db.collection('notes').createIndex({ owner: 1 });
    },
    gateway: {
      limits: { maxRoundTrips: 3 },
      // The per-parent reads are the resolver's own: the test's estimate self-check would refuse them first.
      checkEstimates: false,
      onWarning: () => undefined,
      resolvers: {
        User: {
          noteCount: async (user: { name: string }, _args: unknown, context: GatewayContext, info: GraphQLResolveInfo) => (await context.documents.findMany(info, 'Note', { filter: { owner: user.name }, first: 100 })).length,
        },
      },
    },
  });
}, 60_000);
afterAll(() => fixture?.stop());

it('refuses the hand-written reads past maxRoundTrips at the fields that asked, and sends none of them', async () => {
  const sent: string[] = [];
  const listener = (event: { commandName: string; command: Record<string, unknown> }) => {
    if (event.commandName === 'find' || event.commandName === 'aggregate') sent.push(String(event.command[event.commandName]));
  };
  fixture.client.on('commandStarted', listener);
  try {
    const result = await fixture.gateway.execute({ query: '{ users(first: 6) { name noteCount } }' });
    expect(result.data).toEqual({ users: users.map((user, n) => ({ name: user.name, noteCount: n < 2 ? 1 : null })) });
    expect(result.errors?.map((error) => [error.path?.join('.'), error.extensions?.code])).toEqual([2, 3, 4, 5].map((n) => [`users.${n}.noteCount`, 'COST_LIMIT_EXCEEDED']));
    expect(result.errors?.[0]?.message).toBe(
      'Operation stopped at its limit of 3 round trips (set by the limits.maxRoundTrips option): it read more than the 1 its estimate counted for User.noteCount, which only a read the estimate cannot see sends: a hand-written resolver reading through context.documents, or the join of snapshot copies lacking the fields selected. Ask for fewer items, or read them in fewer commands.',
    );
    expect([result.cost?.roundTrips, sent]).toEqual([3, ['users', 'notes', 'notes']]);
  } finally {
    fixture.client.off('commandStarted', listener);
  }
});

it('leaves an operation within the limit alone', async () => {
  const result = await fixture.gateway.execute({ query: '{ users(first: 2) { name noteCount } }' });
  expect([result.errors, result.cost?.roundTrips]).toEqual([undefined, 3]);
});
