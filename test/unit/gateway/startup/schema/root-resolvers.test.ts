import { GraphQLScalarType } from 'graphql';
import { DecimalScalar } from 'docjoin';
import { buildGatewaySchema } from '../../../../../src/gateway/startup/schema/build-gateway-schema';
import { withDirectiveTypeDefs } from '../../../../../src/gateway/startup/schema/schema-sources';

const SDL = /* GraphQL */ `
  type Query { order(id: ID!): Order @find orders: [Order!]! @list recent: [Order!]! }
  type Mutation { cancel(id: ID!): Order }
  type Order @collection(name: "orders") { id: ID! }
`;

const build = (resolvers: Record<string, Record<string, unknown>>) => () => buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(SDL), resolvers });

describe('every root field has exactly one resolver', () => {
  it('refuses a field with none, and one with both a generated and a hand-written resolver', () => {
    expect(build({ Query: { order: () => null } })).toThrow(
      [
        'Invalid storage directives:',
        '  - Query.order: has a generated resolver (@find, @list, @create, @update or @delete) and a hand-written one; remove the directive or the resolver',
        '  - Query.recent: no resolver; add @find or @list to generate it, or pass a resolver for Query.recent',
        '  - Mutation.cancel: no resolver; add @create, @update or @delete to generate it, or pass a resolver for Mutation.cancel with its write plan',
      ].join('\n'),
    );
  });

  it('refuses resolvers naming a type, field or enum value the schema lacks, or a map that is no object, suggesting the nearest name', () => {
    const sdl = /* GraphQL */ `
      type Query { recent: [Order!]! }
      type Order @collection(name: "orders") { id: ID! status: Status! }
      enum Status { OPEN CLOSED }
    `;
    const problems = (resolvers: unknown) => {
      try {
        buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(sdl), resolvers: resolvers as Record<string, never> });
        return [];
      } catch (error) {
        return (error as Error).message.split('\n').slice(1);
      }
    };
    expect(problems({ Query: { recent: () => [], recnt: () => [] }, Ordr: {}, Order: { __isTypeOf: () => true, statu: () => 'OPEN' }, Status: { OPEN: 'open', SHUT: 'shut' } })).toEqual([
      '  - resolvers.Query.recnt: Query has no field recnt (did you mean recent?); rename the resolver to a field of the SDL, or remove it',
      '  - resolvers.Ordr: the schema has no type Ordr (did you mean Order?); rename it to a type of the SDL, or remove it',
      '  - resolvers.Order.statu: Order has no field statu (did you mean status?); rename the resolver to a field of the SDL, or remove it',
      '  - resolvers.Status.SHUT: Status has no value SHUT; rename the resolver to a value of the SDL, or remove it',
    ]);
    expect(problems({ Query: 5 })).toEqual(['  - resolvers.Query must be an object of field resolvers, got 5', '  - Query.recent: no resolver; add @find or @list to generate it, or pass a resolver for Query.recent']);
    expect(problems('resolvers.ts')).toEqual(['  - resolvers must be an object of resolver maps by type ({ Query: { field: resolver } }), got "resolvers.ts"', '  - Query.recent: no resolver; add @find or @list to generate it, or pass a resolver for Query.recent']);
    expect(problems({ Query: { recent: () => [] }, Order: { status: () => 'OPEN' }, Status: { OPEN: 'open' } })).toEqual([]);
  });

  it('refuses a write plan for a mutation the schema lacks (a misspelt name), suggesting the nearest', () => {
    const sdl = /* GraphQL */ `
      type Query { orders: [Order!]! @list }
      type Mutation { cancelOrder(id: ID!): Order }
      type Order @collection(name: "orders") { id: ID! status: String! }
    `;
    const resolvers = { Mutation: { cancelOrder: () => null } };
    const cancel = [{ kind: 'updateSource', typeName: 'Order', fields: ['status'] }] as const;
    const problems = (writePlans: Record<string, unknown>) => {
      try {
        buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(sdl), resolvers, writePlans: writePlans as never });
        return [];
      } catch (error) {
        return (error as Error).message.split('\n').slice(1);
      }
    };
    expect(problems({ cancelOrder: cancel, cancelOrdr: cancel })).toEqual(['  - writePlans.cancelOrdr: Mutation has no field cancelOrdr (did you mean cancelOrder?); rename the plan to a mutation of the SDL, or remove it']);
    expect(problems({ cancelOrder: cancel })).toEqual([]);
  });

  it('refuses a generating directive on the wrong type, naming where it belongs', () => {
    const sdl = /* GraphQL */ `
      type Query { order(id: ID!): Order @find createOrder(input: OrderInput!): Order! @create }
      type Mutation { orders: [Order!]! @list deleteOrder(id: ID!): ID @delete(type: "Order") }
      type Order @collection(name: "orders") { id: ID! total: Float! }
      input OrderInput { total: Float! }
    `;
    const problems = (() => {
      try {
        buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(sdl), resolvers: {} });
        return [];
      } catch (error) {
        return (error as Error).message.split('\n');
      }
    })();
    // Before, Query.createOrder started and answered null (an error, as it is non-null) at every request,
    // and Mutation.orders was refused for having no write plan.
    expect(problems).toEqual([
      'Invalid storage directives:',
      '  - Query.createOrder: @create generates a mutation, so it belongs on a field of Mutation; move createOrder there',
      '  - Mutation.orders: @list generates a root read, so it belongs on a field of Query; move orders there',
    ]);
  });

  it('names a generating directive on a relation of another type as misplaced, once, rather than a field without a storage shape', () => {
    const sdl = /* GraphQL */ `
      type Query { order(id: ID!): Order @find }
      type Order @collection(name: "orders") { id: ID! customer(id: ID!): Customer @find copy(input: CustomerInput!): Customer @create }
      type Customer @collection(name: "customers") { id: ID! name: String! }
      input CustomerInput { name: String! }
    `;
    expect(() => buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(sdl), resolvers: {} })).toThrow(
      new Error(
        [
          'Invalid storage directives:',
          '  - Order.customer: @find generates a root read, so it belongs on a field of Query; move customer there',
          '  - Order.copy: @create generates a mutation, so it belongs on a field of type Mutation; move copy there',
        ].join('\n'),
      ),
    );
  });

  it('refuses a Subscription type, which would reach the public schema and then be refused at every request', () => {
    const sdl = /* GraphQL */ `
      type Query { order(id: ID!): Order @find }
      type Subscription { orderPlaced: Order! orderCancelled: Order! }
      type Order @collection(name: "orders") { id: ID! }
    `;
    expect(() => buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(sdl), resolvers: {} })).toThrow(
      [
        'Invalid storage directives:',
        '  - Subscription.orderPlaced: docjoin serves queries and mutations, not subscriptions; remove type Subscription (2 fields) from the SDL and serve subscriptions from another server',
      ].join('\n'),
    );
  });

  it('accepts generated fields next to hand-written ones', () => {
    expect(build({ Query: { recent: () => [] }, Mutation: { cancel: () => null } })).not.toThrow();
  });

  it('refuses an aggregate over a field a hand-written resolver answers: MongoDB would add up the stored value', () => {
    const sdl = /* GraphQL */ `
      type Query { orders: [Order!]! @list ordersAggregate: OrderAggregate! @aggregate(of: "orders", fields: ["total"], groupBy: ["status"]) }
      type Order @collection(name: "orders") { id: ID! total: Float! status: String! }
    `;
    const build = (resolvers: Record<string, Record<string, unknown>>) => () => buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(sdl), resolvers });
    expect(build({ Order: { total: () => 1, status: () => 'x' } })).toThrow(
      [
        'Invalid storage directives:',
        '  - Query.ordersAggregate: @aggregate(fields:) names Order.total, which has a hand-written resolver, but MongoDB aggregates the stored value; store what the resolver computes, or aggregate another field',
        '  - Query.ordersAggregate: @aggregate(groupBy:) names Order.status, which has a hand-written resolver, but MongoDB aggregates the stored value; store what the resolver computes, or aggregate another field',
      ].join('\n'),
    );
    expect(build({ Order: { id: () => 'x' } })).not.toThrow();
  });

  it('refuses an aggregate over a Decimal or Long the resolvers define themselves: docjoin sums only its own', () => {
    const sdl = /* GraphQL */ `
      scalar Decimal
      type Query { orders: [Order!]! @list ordersAggregate: OrderAggregate! @aggregate(of: "orders", fields: ["total"]) }
      type Order @collection(name: "orders") { id: ID! total: Decimal! }
    `;
    const build = (resolvers: Record<string, unknown>) => () => buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(sdl), resolvers: resolvers as Record<string, Record<string, unknown>> });
    expect(build({ Decimal: new GraphQLScalarType({ name: 'Decimal' }) })).toThrow(
      'Query.ordersAggregate: @aggregate(fields:) names Order.total, a Decimal your resolvers define, but docjoin gives only its own Decimal exactly (the BSON values MongoDB computes); drop your Decimal resolver, or aggregate another field',
    );
    expect(build({})).not.toThrow();
    expect(build({ Decimal: DecimalScalar })).not.toThrow();
  });
});

describe('a field the storage map refuses', () => {
  it('is the one problem: what the later checks would say of it (its aggregate, input, access rule, and the roots they refuse) follows from it', () => {
    const sdl = /* GraphQL */ `
      type Query {
        orders: [Order!]! @list
        ordersAggregate: OrderAggregate! @aggregate(of: "orders", groupBy: ["customer"])
      }
      type Mutation { createOrder(input: OrderInput!): Order! @create }
      input OrderInput { total: Float! customer: ID! }
      type Customer @collection(name: "customers") @access(roles: ["customer"], allow: [READ], where: [{ field: "id", claim: "sub" }]) {
        id: ID!
        name: String!
        orders: [Order!]! @join(localField: "_id", foreignField: "customer.id")
        orderCount: Int! @counter(of: "Customer.orders")
      }
      type Order @collection(name: "orders") @access(roles: ["customer"], allow: [READ], where: [{ field: "customer", claim: "sub" }]) {
        id: ID!
        total: Float!
        customer: Customer @snapshot(path: "customer", fields: ["name"]) @join(localField: "customer.id") @read(strategy: SNAPSHOT)
      }
    `;
    let message = '';
    try {
      buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(sdl), resolvers: {} });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.split('\n')).toEqual(['Invalid storage directives:', '  - Order.customer: @snapshot(fields:) must include "id", the key each copy keeps at "customer.id"; add "id" to fields']);
  });

  it('refuses an @access constant on an enum the resolvers map: the documents hold the mapped value, not the name', () => {
    const sdl = /* GraphQL */ `
      type Query { posts: [Post!]! @list }
      enum Status { DRAFT PUBLISHED }
      type Post @collection(name: "posts") @access(roles: ["anonymous"], allow: [READ], where: [{ field: "status", equals: PUBLISHED }]) { id: ID! status: Status! }
    `;
    const start = (resolvers: Record<string, Record<string, unknown>>) => () => buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(sdl), resolvers });
    expect(start({})).not.toThrow();
    expect(start({ Status: { DRAFT: 'd', PUBLISHED: 'p' } })).toThrow(
      'Post: @access where: { field: "status", equals: PUBLISHED } compares the documents with the enum value\'s name, but the resolvers store Status.PUBLISHED as "p"; compare status with a claim, or store the enum by its names',
    );
  });
});
