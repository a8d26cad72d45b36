import { getOperationAST, getVariableValues, parse, validate, type GraphQLSchema } from 'graphql';
import { rootResolvers, rootWritePlans } from '../../../../resolvers';
import { planOperation } from '../../../../src/cli/explain/plan-operation';
import { estimateOperation } from '../../../../src/gateway/operation/estimate/estimate-operation';
import { buildOperationPlan } from '../../../../src/gateway/operation/plan/operation-plan';
import { buildGatewaySchema } from '../../../../src/gateway/startup/schema/build-gateway-schema';
import { withDirectiveTypeDefs } from '../../../../src/gateway/startup/schema/schema-sources';
import { declaredStrategies, type ReadStrategy, type StorageMap } from '../../../../src/gateway/startup/storage-map/storage-map-types';
import { demoTypeDefs } from '../../../support/demo-project';
import { Random, randomOperation } from '../../../support/random-operations';

const demo = buildGatewaySchema({ typeDefs: demoTypeDefs(), resolvers: rootResolvers, writePlans: rootWritePlans });
/**
 * Threads keep their 3 newest messages embedded (20 entries assumed where the array is not measured),
 * and a message's reactions are a reverse join without a limit: past 10,000 children a batch's reply
 * needs getMores, so how many messages the level above reads changes what the level below sends.
 */
const threads = buildGatewaySchema({
  typeDefs: withDirectiveTypeDefs(/* GraphQL */ `
    type Query { threads(first: Int = 20): [Thread!]! @list }
    type Thread @collection(name: "threads") {
      id: ID!
      recentMessages: [Message!]! @embedded @join(collection: "messages", localField: "_id", foreignField: "threadId", sort: "-at", limit: 3) @read(strategy: EMBEDDED)
      pinned(first: Int): [Message!]! @embedded @join(collection: "messages", localField: "_id", foreignField: "threadId", sort: "at", limit: 3) @read(strategy: JOIN)
    }
    type Message @collection(name: "messages") {
      id: ID!
      at: String!
      reactions: [Reaction!]! @join(localField: "_id", foreignField: "messageId")
      thread: Thread @join(localField: "threadId")
    }
    type Reaction @collection(name: "reactions") { id: ID! emoji: String! }
  `),
  resolvers: {},
});
const OPERATIONS = 2_000;
const SEED = Number(process.env.WHAT_IF_SEED ?? 20_261_129);

interface Mismatch {
  readonly query: string;
  readonly overrides: Record<string, ReadStrategy>;
  readonly coordinate: string;
  readonly strategy: ReadStrategy;
  readonly whatIf: number;
  readonly estimated: number;
}

/**
 * `docjoin explain`'s what-ifs come from the figures the estimate works out per step, in its one pass;
 * they must equal the estimate made again with the field switched (what explain used to run). Returns
 * every field and strategy where they differ, and how many what-ifs were compared.
 */
function compareWhatIfs(schema: GraphQLSchema, storageMap: StorageMap, query: string, variables: Record<string, unknown>, overrides: Record<string, ReadStrategy>, operationName?: string): { mismatches: Mismatch[]; compared: number } {
  const document = parse(query);
  if (validate(schema, document).length > 0) return { mismatches: [], compared: 0 };
  const operation = getOperationAST(document, operationName);
  if (!operation) return { mismatches: [], compared: 0 };
  const { coerced } = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  if (!coerced) return { mismatches: [], compared: 0 };
  const plan = buildOperationPlan(schema, document, operation, coerced);
  const overrideMap = new Map(Object.entries(overrides));
  const explained = planOperation({ schema, storageMap, plan, variableValues: coerced, overrides: overrideMap });
  const mismatches: Mismatch[] = [];
  let compared = 0;
  for (const row of explained.rows) {
    if (row.kind !== 'relation') continue;
    for (const alternative of row.alternatives) {
      const switched = new Map([...overrideMap, [row.coordinate, alternative.strategy]]);
      const estimated = estimateOperation({ schema, storageMap, plan, variableValues: coerced, strategyFor: (field) => switched.get(field.coordinate) ?? field.defaultStrategy }).roundTrips;
      compared++;
      if (estimated !== alternative.roundTrips) mismatches.push({ query, overrides, coordinate: row.coordinate, strategy: alternative.strategy, whatIf: alternative.roundTrips, estimated });
    }
  }
  return { mismatches, compared };
}

function planned(schema: GraphQLSchema, query: string) {
  const document = parse(query);
  const plan = buildOperationPlan(schema, document, getOperationAST(document)!, {});
  return { plan, variableValues: {} };
}

/** A random strategy override for about a third of the relation fields that declare more than one. */
function randomOverrides(storageMap: StorageMap, random: Random): Record<string, ReadStrategy> {
  const overrides: Record<string, ReadStrategy> = {};
  for (const field of storageMap.relations.values()) {
    const strategies = declaredStrategies(field);
    if (strategies.length > 1 && random.chance(0.3)) overrides[field.coordinate] = strategies[random.below(strategies.length)]!;
  }
  return overrides;
}

describe("explain's what-ifs, from the estimate's per-step figures", () => {
  it.each([
    ['a snapshot beside a join', '{ books(first: 50) { name publisher { name } authors { name thumbnailUrl } } }', {}],
    ['an embedded list whose join reads another number of children per parent', '{ posts(first: 10) { title recentComments { author comment } } }', {}],
    ['the same field at two levels, below itself', '{ authors(first: 50) { name books { name publisher { name books(first: 3) { name authors { name books { name } } } } } } }', {}],
    ['aliases of one field sharing its batch', '{ books(first: 5) { a: authors { name } b: authors { name countOfBooks } publisher { name } } }', { 'Book.authors': 'join' }],
  ] as const)('%s: each equals the estimate made again', (_name, query, overrides) => {
    const { mismatches, compared } = compareWhatIfs(demo.schema, demo.storageMap, query, {}, overrides);
    expect(compared).toBeGreaterThan(0);
    expect(mismatches).toEqual([]);
  });

  it('a field whose other strategy reads fewer children per parent: the level below sends fewer getMores', () => {
    const query = '{ threads(first: 100) { recentMessages { at reactions { emoji } } } }';
    // Embedded: 100 × 20 messages, whose 40,000 reactions take one aggregate and 3 getMores; joined: 3 per thread, 6,000 reactions in one reply;
    // looked up: the same 3 per thread inside the threads' read, then the reactions' one reply.
    const { rows, estimate } = planOperation({ schema: threads.schema, storageMap: threads.storageMap, ...planned(threads.schema, query), overrides: new Map() });
    expect(estimate.roundTrips).toBe(5);
    expect(rows.find((row) => row.coordinate === 'Thread.recentMessages')).toMatchObject({ alternatives: [{ strategy: 'join', roundTrips: 3 }, { strategy: 'lookup', roundTrips: 2 }] });
    expect(compareWhatIfs(threads.schema, threads.storageMap, query, {}, {}).mismatches).toEqual([]);
    for (const other of [
      '{ threads(first: 100) { recentMessages { at reactions { emoji } } more: recentMessages { reactions { id } } } }',
      // The field again below itself: switched at both levels, the outer one's children read both ways.
      '{ threads(first: 100) { recentMessages { thread { recentMessages { reactions { emoji } } } } } }',
      '{ threads(first: 30) { recentMessages { reactions { id } thread { recentMessages { thread { recentMessages { reactions { emoji } } } } } } } }',
    ]) {
      // Thread.recentMessages, and the joins below it, each compared.
      expect(compareWhatIfs(threads.schema, threads.storageMap, other, {}, {})).toEqual({ mismatches: [], compared: expect.any(Number) });
      expect(compareWhatIfs(threads.schema, threads.storageMap, other, {}, { 'Thread.recentMessages': 'join' })).toEqual({ mismatches: [], compared: expect.any(Number) });
    }
  });

  it('aliases of a field where the first reads nothing (first: 0): the scope keeps its what-if', () => {
    for (const query of ['{ threads(first: 10) { a: pinned(first: 0) { at } b: pinned { at } } }', '{ threads(first: 10) { b: pinned { at } a: pinned(first: 0) { at } } }']) {
      const { rows, estimate } = planOperation({ schema: threads.schema, storageMap: threads.storageMap, ...planned(threads.schema, query), overrides: new Map() });
      expect(estimate.roundTrips).toBe(2);
      expect(rows.find((row) => row.coordinate === 'Thread.pinned')).toMatchObject({ alternatives: [{ strategy: 'embedded', roundTrips: 1 }, { strategy: 'lookup', roundTrips: 1 }] });
      expect(compareWhatIfs(threads.schema, threads.storageMap, query, {}, {})).toEqual({ mismatches: [], compared: 2 });
    }
  });

  it.each([
    ['the demo', demo, OPERATIONS],
    ['threads, whose fields of two strategies take arguments and reach getMores', threads, OPERATIONS / 2],
  ] as const)(`random operations over %s under random overrides (seed ${SEED}): every what-if equals the estimate made again`, (_name, subject, count) => {
    const random = new Random(SEED);
    const pools = { valuesFor: () => [] };
    const mismatches: Mismatch[] = [];
    let compared = 0;
    for (let index = 0; index < count; index++) {
      const operation = randomOperation(subject.schema, pools, SEED + index);
      const result = compareWhatIfs(subject.schema, subject.storageMap, operation.query, operation.variables, randomOverrides(subject.storageMap, random), operation.operationName);
      mismatches.push(...result.mismatches);
      compared += result.compared;
    }
    expect(mismatches.slice(0, 3)).toEqual([]);
    // Enough what-ifs are compared for the check to mean something (seed: WHAT_IF_SEED replays another run).
    expect(compared).toBeGreaterThan(count / 4);
  });
});
