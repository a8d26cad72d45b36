import { objectIdArgument, type GatewayContext } from 'docjoin';
import type { GraphQLResolveInfo } from 'graphql';

/**
 * The ledger tests' hand-written `moveEntry(id: ID!, account: ID!): Boolean!`: ONE changeReference of
 * `Entry.account`, as its write plan says, so an entry leaves one account's totals for another's.
 */
export const MOVE_ENTRY = {
  resolvers: {
    Mutation: {
      moveEntry: async (_parent: unknown, args: { id: string; account: string }, context: GatewayContext, info: GraphQLResolveInfo) => {
        await context.writes.run(info, (unit) => unit.changeReference('Entry.account', objectIdArgument(args.id, 'id'), objectIdArgument(args.account, 'account')));
        return true;
      },
    },
  },
  writePlans: { moveEntry: [{ kind: 'changeReference' as const, coordinate: 'Entry.account' }] },
};
