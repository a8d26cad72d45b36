import { execute, getNamedType, getNullableType, getOperationAST, isEnumType, isLeafType, isListType, parse, responsePathAsArray, type FieldNode, type GraphQLOutputType } from 'graphql';
import { estimateOperation } from '../../../../../src/gateway/operation/estimate/estimate-operation';
import { buildOperationPlan } from '../../../../../src/gateway/operation/plan/operation-plan';
import { connectionSteps, MAX_FIELD_STEPS, type SelectionStep } from '../../../../../src/gateway/operation/plan/selection-tree';
import { planStepOf } from '../../../../../src/gateway/operation/plan/step-index';
import { demoSchema } from '../../support/demo-schema';
import { buildGatewaySchema } from '../../../../../src/gateway/startup/schema/build-gateway-schema';
import { withDirectiveTypeDefs } from '../../../../../src/gateway/startup/schema/schema-sources';

const SDL = /* GraphQL */ `
  type Query { orders(first: Int = 10): [Order!]! @list  item(id: ID!): Item }
  type Order @collection(name: "orders") { id: ID! total: Float lines: [Line!]! @embedded(path: "lines") customer: Customer @join(localField: "customerId") }
  type Customer @collection(name: "customers") { id: ID! name: String! }
  type Line { sku: String! }
  union Item = Order | Customer
`;
const { schema, storageMap, ownership } = buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(SDL), resolvers: { Query: { item: () => null } } });

function planOf(query: string, variables: Record<string, unknown> = {}) {
  const document = parse(query);
  return buildOperationPlan(schema, document, getOperationAST(document)!, variables, ownership);
}

/** The tree as lines: `responseKey (Type.field)` indented by level, each child selection under its type. */
function linesOf(selection: SelectionStep, level = 0): string[] {
  return selection.fields.flatMap((field) => [
    `${'  '.repeat(level)}${field.responseKey} (${field.coordinate})`,
    ...field.children.flatMap((child) => [`${'  '.repeat(level + 1)}on ${child.type.name}`, ...linesOf(child, level + 2)]),
  ]);
}

describe('the selection tree of a plan', () => {
  it('collects each response key once per object type, in graphql-js order, fragments expanded and directives applied', () => {
    const plan = planOf(
      `query ($withTotal: Boolean!) { orders { id total @include(if: $withTotal) ...O id c: customer { name } } item(id: "x") { __typename ... on Customer { name } } }
       fragment O on Order { lines { sku } total }`,
      { withTotal: false },
    );
    expect(linesOf(plan.root!)).toEqual([
      'orders (Query.orders)',
      '  on Order',
      '    id (Order.id)',
      '    lines (Order.lines)',
      '      on Line',
      '        sku (Line.sku)',
      '    total (Order.total)',
      '    c (Order.customer)',
      '      on Customer',
      '        name (Customer.name)',
      'item (Query.item)',
      '  on Order',
      '    __typename (Order.__typename)',
      '  on Customer',
      '    __typename (Customer.__typename)',
      '    name (Customer.name)',
    ]);
    expect(plan.depth).toBe(2);
  });

  it('records a directive without a boolean value, counts its selection as skipped, and leaves the operation to graphql-js', () => {
    const plan = planOf('query ($b: Boolean) { orders { id @skip(if: $b) total } }', { b: null });
    expect(linesOf(plan.root!)).toEqual(['orders (Query.orders)', '  on Order', '    total (Order.total)']);
    expect(plan.owned).toBeUndefined();
    expect(plan.refusal).toBe('@skip / @include without a boolean value (Argument "if" of non-null type "Boolean!" must not be null.)');
  });

  it('an operation past MAX_FIELD_STEPS is not planned: its estimate saturates, its depth is measured on the document', () => {
    // Each alias of the root list holds 203 steps (itself, customer, name, and a fragment of 200 aliases): 98 of them fit, 99 do not.
    const fragment = `fragment Wide on Order { ${Array.from({ length: 200 }, (_, i) => `a${i}: id`).join(' ')} }`;
    const roots = (count: number) => Array.from({ length: count }, (_, i) => `r${i}: orders { customer { name } ...Wide }`).join(' ');
    expect(countSteps(planOf(`{ ${roots(98)} } ${fragment}`).root!)).toBe(98 * 203);
    const plan = planOf(`{ ${roots(99)} } ${fragment}`);
    expect(plan.root).toBeUndefined();
    expect(plan.refusal).toBe(`too large to plan: more than ${MAX_FIELD_STEPS.toLocaleString('en')} fields once its aliases and fragments are multiplied out`);
    expect(plan.owned).toBeUndefined();
    expect(plan.depth).toBe(2);
    const estimate = estimateOperation({ schema, storageMap, plan, variableValues: {}, strategyFor: (field) => field.defaultStrategy });
    expect(estimate).toEqual({ roundTrips: Number.MAX_SAFE_INTEGER, documents: Number.MAX_SAFE_INTEGER, depth: 2, responseNodes: Number.MAX_SAFE_INTEGER, responseBytes: Number.MAX_SAFE_INTEGER });
  });

  it('reads a connection field: page, count and the node selections', () => {
    const { schema: connectionSchema, ownership: connectionOwnership } = buildGatewaySchema({
      typeDefs: withDirectiveTypeDefs(/* GraphQL */ `
        type Query { orders(first: Int, after: String): OrderConnection! @list }
        type Order @collection(name: "orders") { id: ID! total: Float }
        type OrderConnection { edges: [OrderEdge!]! nodes: [Order!]! pageInfo: PageInfo! totalCount: Int! }
        type OrderEdge { cursor: String! node: Order! }
        type PageInfo { hasNextPage: Boolean! hasPreviousPage: Boolean! startCursor: String endCursor: String }
      `),
      resolvers: {},
    });
    const query = '{ orders(first: 2) { totalCount edges { cursor node { id } } nodes { total } first: edges { node { total } } } }';
    const document = parse(query);
    const plan = buildOperationPlan(connectionSchema, document, getOperationAST(document)!, {}, connectionOwnership);
    const connection = connectionSteps(plan.root!.fields[0]!);
    expect(connection.page).toBe(true);
    expect(connection.totalCount).toBe(true);
    expect(connection.nodeSelections.map((selections) => selections.map((selection) => `${selection.type.name}: ${selection.fields.map((field) => field.responseKey).join(' ')}`))).toEqual([
      ['Order: id'],
      ['Order: total'],
      ['Order: total'],
    ]);
  });
});

function countSteps(selection: SelectionStep): number {
  return selection.fields.reduce((sum, field) => sum + 1 + field.children.reduce((below, child) => below + countSteps(child), 0), 0);
}

describe('every field graphql-js resolves finds its step in the plan', () => {
  // The resolvers read their projections, snapshot decisions and connection selections from the step
  // plan/step-index.ts finds for their info. Where graphql-js collected a field's nodes otherwise, the
  // step would not be found (or would be another field's).
  const demo = demoSchema();
  it.each([
    '{ books(first: 2) { name authors { name thumbnailUrl } a: authors { ... on Author { countOfBooks } } } }',
    'query ($x: Boolean!) { posts(first: 2) { c: commentsConnection(first: 2) { totalCount edges { node { author } } nodes @include(if: $x) { comment post { title } } } d: commentsConnection { pageInfo { hasNextPage } } } }',
    'query ($x: Boolean!) { people(first: 2) { holdings { stock { symbol } } ...P tasks @skip(if: $x) { description } } } fragment P on Person { tasks { owner { firstName } } addresses { city } }',
    '{ a: books(first: 1) { ...B } b: books(first: 1) { ...B authors { name } } } fragment B on Book { name authors { thumbnailUrl } }',
  ])('%s', async (query) => {
    const document = parse(query);
    const variableValues = { x: false };
    const plan = buildOperationPlan(demo, document, getOperationAST(document)!, variableValues);
    const resolved: string[] = [];
    const result = await execute({
      schema: demo,
      document,
      variableValues,
      typeResolver: (_value, _context, _info, abstractType) => demo.getPossibleTypes(abstractType)[0]!.name,
      fieldResolver: (_source, _args, _context, info) => {
        const step = planStepOf(plan, info.parentType, info.fieldNodes);
        expect(step?.coordinate).toBe(`${info.parentType.name}.${info.fieldName}`);
        expect(step?.responseKey).toBe(info.path.key);
        resolved.push(responsePathAsArray(info.path).filter((key) => typeof key === 'string').join('.'));
        return fakeValue(info.returnType);
      },
    });
    expect(result.errors).toBeUndefined();
    expect(resolved.length).toBeGreaterThan(5);
  });

  it('finds none for another parse of the document (the planner plans that parse anew)', () => {
    const query = '{ books(first: 1) { name } }';
    const plan = buildOperationPlan(demo, parse(query), getOperationAST(parse(query))!, {});
    const other = getOperationAST(parse(query))!;
    expect(planStepOf(plan, demo.getQueryType()!, [other.selectionSet.selections[0] as FieldNode])).toBeUndefined();
    expect(planStepOf(plan, demo.getQueryType()!, plan.root!.fields[0]!.fieldNodes)).toBe(plan.root!.fields[0]);
  });
});

/** A value of `type` for a resolver that reads nothing: two items per list, one object per object. */
function fakeValue(type: GraphQLOutputType): unknown {
  const named = getNamedType(type);
  const nullable = getNullableType(type);
  if (isListType(nullable)) return [fakeValue(nullable.ofType as GraphQLOutputType), fakeValue(nullable.ofType as GraphQLOutputType)];
  if (isEnumType(named)) return named.getValues()[0]!.value;
  if (isLeafType(named)) return named.name === 'Int' || named.name === 'Float' ? 1 : named.name === 'Boolean' ? true : '1';
  return {};
}
