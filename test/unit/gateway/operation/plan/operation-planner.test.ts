import { getOperationAST, parse, type DocumentNode } from 'graphql';
import { NO_OVERRIDES, type StrategyOverrides } from '../../../../../src/gateway/operation/plan/strategy-overrides';
import { OperationPlanner, planWeight, type ResolvedRequest } from '../../../../../src/gateway/operation/plan/operation-planner';
import { MAX_FIELD_STEPS } from '../../../../../src/gateway/operation/plan/selection-tree';
import { buildGatewaySchema } from '../../../../../src/gateway/startup/schema/build-gateway-schema';
import { withDirectiveTypeDefs } from '../../../../../src/gateway/startup/schema/schema-sources';

const SDL = /* GraphQL */ `
  type Query { orders(first: Int = 10): [Order!]! @list }
  type Order @collection(name: "orders") { id: ID! total: Float note: String lines: [Line!]! @embedded(path: "lines") }
  type Line { sku: String! }
`;
const { schema, ownership } = buildGatewaySchema({ typeDefs: withDirectiveTypeDefs(SDL), resolvers: {} });

const parsed = new Map<string, DocumentNode>();

/** A resolved request as Apollo hands it to the plugins (the query's hash stands for its text; its document cache parses each text once). */
function request(query: string, variables: Record<string, unknown> = {}, overrides: StrategyOverrides = NO_OVERRIDES, operationName: string | null = null): ResolvedRequest {
  let document = parsed.get(query);
  if (!document) parsed.set(query, (document = parse(query)));
  return { document, operation: getOperationAST(document, operationName) ?? undefined, operationName, queryHash: query, request: { variables }, contextValue: { overrides, ledger: {} } };
}

describe('OperationPlanner', () => {
  const QUERY = 'query Q($n: Int, $withTotal: Boolean!) { orders(first: $n) { id total @include(if: $withTotal) lines { sku } } }';

  it('prepares a request once, whoever asks: the same plan and the same coerced variables', () => {
    const planner = new OperationPlanner(schema, ownership);
    const sent = request(QUERY, { n: 2, withTotal: true });
    const first = planner.prepare(sent);
    expect(first).not.toBeNull();
    expect(planner.prepare(sent)).toBe(first);
    expect(first!.variables).toEqual({ n: 2, withTotal: true });
    expect(first!.plan.depth).toBe(2);
    expect(first!.plan.owned?.root.fields.map((field) => field.responseKey)).toEqual(['orders']);
  });

  it('plans a query once per shape: other values of its Boolean variables, or other strategies, are planned anew', () => {
    const lookups: boolean[] = [];
    const planner = new OperationPlanner(schema, ownership, { onLookup: (hit) => lookups.push(hit) });
    const withTotal = planner.prepare(request(QUERY, { n: 2, withTotal: true }))!.plan;
    expect(planner.prepare(request(QUERY, { n: 5, withTotal: true }))!.plan).toBe(withTotal);
    const withoutTotal = planner.prepare(request(QUERY, { n: 2, withTotal: false }))!.plan;
    expect(withoutTotal).not.toBe(withTotal);
    const shape = (plan: typeof withTotal) => plan.owned?.root.fields[0]?.kind === 'relation' && plan.owned.root.fields[0].child.fields.map((field) => field.responseKey);
    expect([shape(withTotal), shape(withoutTotal)]).toEqual([['id', 'total', 'lines'], ['id', 'lines']]);
    planner.prepare(request(QUERY, { n: 2, withTotal: true }, new Map([['Order.lines', 'embedded']])));
    expect(lookups).toEqual([false, true, false, false]);
    expect(planner.size).toBe(3);
  });

  it('plans another parse of the same text anew: resolvers find their steps by the nodes of the document they run', () => {
    const lookups: boolean[] = [];
    const planner = new OperationPlanner(schema, ownership, { onLookup: (hit) => lookups.push(hit) });
    const first = request(QUERY, { n: 2, withTotal: true });
    const document = parse(QUERY);
    const operation = getOperationAST(document)!;
    const firstPlan = planner.prepare(first)!.plan;
    const reparsedPlan = planner.prepare({ ...first, document, operation })!.plan;
    expect(reparsedPlan).not.toBe(firstPlan);
    expect(reparsedPlan.operation).toBe(operation);
    expect(lookups).toEqual([false, false]);
    expect(planner.size).toBe(1);
  });

  it('gives a resolver the plan prepared for its request, and plans an operation executed without Apollo anew each time', () => {
    const planner = new OperationPlanner(schema, ownership);
    const sent = request(QUERY, { n: 2, withTotal: false });
    const prepared = planner.prepare(sent)!;
    const info = { operation: sent.operation!, fragments: {}, variableValues: prepared.variables };
    // Apollo runs the request on a shallow copy of its context: the ledger is the same object.
    expect(planner.planOf(info, { ...sent.contextValue }.ledger)).toBe(prepared.plan);
    // Another request (not prepared) gets a plan of its own, kept by nobody.
    const other = {};
    const unprepared = planner.planOf(info, other);
    expect(unprepared).not.toBe(prepared.plan);
    expect(unprepared.operation).toBe(sent.operation);
    expect(planner.planOf(info, other)).not.toBe(unprepared);
    // A prepared context running another operation gets that operation's plan.
    const elsewhere = getOperationAST(parse('{ orders { note } }'))!;
    expect(planner.planOf({ operation: elsewhere, fragments: {}, variableValues: {} }, sent.contextValue.ledger).operation).toBe(elsewhere);
    expect(planner.size).toBe(1);
  });

  it('keeps at most maxPlans, dropping the least recently used', () => {
    const lookups: boolean[] = [];
    const planner = new OperationPlanner(schema, ownership, { maxPlans: 2, onLookup: (hit) => lookups.push(hit) });
    for (const query of ['{ orders { id } }', '{ orders { total } }', '{ orders { id } }', '{ orders { note } }', '{ orders { total } }']) planner.prepare(request(query));
    expect(lookups).toEqual([false, false, true, false, false]);
    expect(planner.size).toBe(2);
  });

  it('weighs plans by their field steps and text: large ones, in many variants, evict others instead of growing the heap', () => {
    // 40 aliases of a selection of 3 fields: 160 field steps, and the text of the operation.
    const large = `query Big(${[0, 1, 2, 3, 4, 5].map((n) => `$b${n}: Boolean!`).join(', ')}) { ${Array.from({ length: 40 }, (_, n) => `o${n}: orders { id total @include(if: $b${n % 6}) note }`).join(' ')} }`;
    const variants = Array.from({ length: 64 }, (_, variant) => Object.fromEntries([0, 1, 2, 3, 4, 5].map((n) => [`b${n}`, ((variant >> n) & 1) === 1])));
    const weights = variants.map((variables) => planWeight(new OperationPlanner(schema, ownership).prepare(request(large, variables))!.plan));
    const heaviest = Math.max(...weights);
    expect(Math.min(...weights)).toBeGreaterThan(120 * 640);
    // Room for 5 of them at most; each fits in an eighth of it.
    const planner = new OperationPlanner(schema, ownership, { maxBytes: 8 * heaviest });
    for (const variables of variants) planner.prepare(request(large, variables));
    expect(planner.size).toBeGreaterThanOrEqual(5);
    expect(planner.size).toBeLessThanOrEqual(8);
    // One heavier than an eighth of the bound is planned, and not kept.
    const lookups: boolean[] = [];
    const small = new OperationPlanner(schema, ownership, { maxBytes: 4 * heaviest, onLookup: (hit) => lookups.push(hit) });
    expect(small.prepare(request(large, variants[0]))!.plan.root).toBeDefined();
    small.prepare(request(large, variants[0]));
    expect([lookups, small.size]).toEqual([[false, false], 0]);
  });

  it('keeps no plan of an operation too large to plan: it would keep the whole document', () => {
    const planner = new OperationPlanner(schema, ownership);
    const huge = `{ ${Array.from({ length: MAX_FIELD_STEPS + 1 }, (_, n) => `t${n}: __typename`).join(' ')} }`;
    const prepared = planner.prepare(request(huge));
    expect(prepared!.plan.refusal).toMatch(/^too large to plan/);
    expect(planner.size).toBe(0);
  });

  it('prepares nothing when no operation was resolved or the variables do not coerce', () => {
    const planner = new OperationPlanner(schema, ownership);
    expect(planner.prepare(request('query A { orders { id } }', {}, NO_OVERRIDES, 'B'))).toBeNull();
    expect(planner.prepare(request(QUERY, { n: 'two', withTotal: true }))).toBeNull();
    expect(planner.size).toBe(0);
  });
});
