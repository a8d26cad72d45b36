import type { MutationWritePlans } from 'docjoin';
import type { Resolvers } from '../generated/resolvers-types';
import { cheapest } from './cheapest';
import { placeOrder, placeOrderPlan } from './place-order';

/** Everything the shop writes by hand; every other root field is generated from its directive. */
export const resolvers = { Query: { cheapest }, Mutation: { placeOrder } } satisfies Resolvers;

export const writePlans: MutationWritePlans = { placeOrder: placeOrderPlan };
