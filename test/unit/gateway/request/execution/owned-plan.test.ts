import { getOperationAST, parse } from 'graphql';
import type { OwnedOperation } from '../../../../../src/gateway/operation/plan/owned-plan';
import { buildOperationPlan } from '../../../../../src/gateway/operation/plan/operation-plan';
import { buildGatewaySchema } from '../../../../../src/gateway/startup/schema/build-gateway-schema';
import { withDirectiveTypeDefs } from '../../../../../src/gateway/startup/schema/schema-sources';

const SDL = /* GraphQL */ `
  type Query { orders(first: Int = 10): [Order!]! @list recent: [Order!]! }
  type Mutation { relabel(id: ID!, label: String!): Order! forget(id: ID!): ID }
  type Order @collection(name: "orders") {
    id: ID!
    label: String! @path(path: "meta.label")
    total: Float
    customer: Customer @join(localField: "customerId")
    lines: [Line!]! @embedded
  }
  type Line { sku: String! quantity: Int! }
  type Customer @collection(name: "customers") { id: ID! name: String! vip: Boolean }
`;

function planner(resolvers: Record<string, Record<string, unknown>> = {}) {
  const { schema, ownership } = buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(SDL), resolvers: { Query: { recent: () => [] }, Mutation: { relabel: () => null, forget: () => null }, ...resolvers } });
  // The operation as Apollo picks it (none for an unknown name), planned as the planner plans it.
  return (query: string, operationName: string | null = null, variables: Record<string, unknown> = {}) => {
    const document = parse(query);
    const operation = getOperationAST(document, operationName);
    return operation ? buildOperationPlan(schema, document, operation, variables, ownership).owned : undefined;
  };
}

/** Each field of a selection plan by response key, as kind (and child plan) for a compact comparison. */
function shape(plan: OwnedOperation['root']): unknown {
  return Object.fromEntries(plan.fields.map((field) => [field.responseKey, field.kind === 'relation' ? shape(field.child) : field.kind]));
}

describe('planOwnedOperation', () => {
  it('plans every field of a query below generated root fields, in response order, fragments merged', () => {
    const plan = planner()(`
      { __typename orders(first: 2) { ...Head customer { name } mine: customer { id vip } lines { sku quantity } } }
      fragment Head on Order { id label total customer { id } }
    `);
    expect(plan && shape(plan.root)).toEqual({
      __typename: 'typename',
      orders: { id: 'resolved', label: 'resolved', total: 'stored', customer: { id: 'resolved', name: 'stored' }, mine: { id: 'resolved', vip: 'stored' }, lines: { sku: 'stored', quantity: 'stored' } },
    });
  });

  it('owns hand-written root fields, and mutations whose root fields have resolvers (leaves too)', () => {
    expect(shape(planner()('{ recent { id customer { name } } }')!.root)).toEqual({ recent: { id: 'resolved', customer: { name: 'stored' } } });
    const mutation = planner()('mutation { a: relabel(id: "x", label: "y") { label customer { name } } b: forget(id: "x") __typename }');
    expect(mutation?.operation.operation).toBe('mutation');
    expect(shape(mutation!.root)).toEqual({ a: { label: 'resolved', customer: { name: 'stored' } }, b: 'resolved', __typename: 'typename' });
  });

  it('picks the named operation of a document with several', () => {
    const plan = planner()('query A { orders { id } } query B { orders { total } }', 'B');
    expect(plan && shape(plan.root)).toEqual({ orders: { total: 'stored' } });
  });

  it('applies @skip and @include as graphql-js does: a key placed where it is first included', () => {
    const plan = planner()(
      `query ($s: Boolean!) { orders { id @skip(if: true) total id ...F @include(if: $s) ... on Order @skip(if: $s) { label } ...F } }
       fragment F on Order { customer { name } }`,
      null,
      { s: false },
    );
    expect(plan && shape(plan.root)).toEqual({ orders: { total: 'stored', id: 'resolved', label: 'resolved', customer: { name: 'stored' } } });
    expect(Object.keys(plan ? (shape(plan.root) as { orders: object }).orders : {})).toEqual(['total', 'id', 'label', 'customer']);
  });

  it.each([
    ['a hand-written resolver below', '{ orders { customer { name } } }', { Order: { customer: () => null } }],
    ['a hand-written leaf resolver', '{ orders { total } }', { Order: { total: () => 1 } }],
    ['a hand-written isTypeOf', '{ orders { customer { name } } }', { Customer: { __isTypeOf: () => true } }],
    ['introspection', '{ orders { id } __schema { queryType { name } } }', {}],
    ['an unknown operation name', 'query A { orders { id } }', {}],
  ])('leaves an operation with %s to graphql-js', (_what, query, resolvers) => {
    expect(planner(resolvers)(query, query.startsWith('query A') ? 'B' : null)).toBeUndefined();
  });

  it('leaves an operation whose @skip variable is sent as null to graphql-js, which reports the error', () => {
    const query = 'query ($s: Boolean = true) { orders { id @skip(if: $s) } }';
    expect(planner()(query, null, { s: null })).toBeUndefined();
    expect(planner()(query, null, { s: true })).toBeDefined();
  });
});
