import { getOperationAST, getVariableValues, parse } from 'graphql';
import { rootResolvers, rootWritePlans } from '../../../../resolvers';
import { planOperation, type OperationPlan } from '../../../../src/cli/explain/plan-operation';
import { formatPlan } from '../../../../src/cli/explain/format-plan';
import { DEFAULT_COST_LIMITS } from '../../../../src/gateway/operation/cost/cost-limits';
import type { ReadStrategy } from '../../../../src/gateway/startup/storage-map/storage-map-types';
import { buildOperationPlan } from '../../../../src/gateway/operation/plan/operation-plan';
import { buildGatewaySchema } from '../../../../src/gateway/startup/schema/build-gateway-schema';
import { demoTypeDefs } from '../../../support/demo-project';
import { buildWriteEstimates } from '../../../../src/gateway/writes/write-runtime';

const { schema, storageMap, writeModel, writePlans } = buildGatewaySchema({ typeDefs: demoTypeDefs(), resolvers: rootResolvers, writePlans: rootWritePlans });

const writeEstimates = buildWriteEstimates({ model: writeModel, mutationType: schema.getMutationType(), plans: writePlans, transaction: true });

function plan(query: string, overrides: Record<string, ReadStrategy> = {}, variables: Record<string, unknown> = {}, options: { assumedListSize?: number } = {}): OperationPlan {
  const document = parse(query);
  const operation = getOperationAST(document)!;
  const { coerced } = getVariableValues(schema, operation.variableDefinitions ?? [], variables);
  return planOperation({
    schema,
    storageMap,
    plan: buildOperationPlan(schema, document, operation, coerced!),
    variableValues: coerced!,
    overrides: new Map(Object.entries(overrides)),
    writeEstimate: (field) => writeEstimates.get(field),
    ...options,
  });
}

/** One line per row: `depth coordinate strategy estimate | alternatives`. */
function rowsOf(result: OperationPlan): string[] {
  return result.rows.map((row) =>
    row.kind === 'root'
      ? `${row.coordinate} root ${row.estimatedRoundTrips}`
      : row.kind === 'aggregate'
        ? `${'  '.repeat(row.depth)}${row.coordinate} aggregate ${row.estimatedRoundTrips} | ${row.read}`
        : `${'  '.repeat(row.depth)}${row.coordinate} ${row.strategy}${row.overridden ? '*' : ''} ${row.estimatedRoundTrips}` +
        (row.alternatives.length ? ` | ${row.alternatives.map((alternative) => `${alternative.strategy}=${alternative.roundTrips}`).join(' ')}` : ''),
  );
}

describe('planOperation (static, no database)', () => {
  it('books with publisher and snapshot authors: 2 round trips; joining the authors would make it 3', () => {
    const result = plan('{ books(first: 50) { name publisher { name } authors { name thumbnailUrl } } }');
    // Response objects: 50 books, their publishers, 20 (assumed) authors each. As JSON, with 16 bytes a
    // value (nothing measured): a book is {} and "name":v, "publisher":, "authors": (2 + 24 + 13 + 11),
    // a publisher {"name":v} (26), an author {"name":v,"thumbnailUrl":v} (2 + 24 + 32).
    expect(result.estimate).toEqual({ roundTrips: 2, documents: 100, depth: 2, responseNodes: 50 + 50 + 50 * 20, responseBytes: 50 * 50 + 50 * 26 + 50 * 20 * 58 });
    expect(rowsOf(result)).toEqual(['Query.books root 1', '  Book.publisher join 1 | lookup=1', '  Book.authors snapshot 0 | join=3 lookup=2']);
  });

  it('a selection outside the snapshot: the snapshot field costs its fallback join', () => {
    const result = plan('{ books(first: 50) { name publisher { name } authors { name countOfBooks } } }');
    expect(result.estimate.roundTrips).toBe(3);
    expect(rowsOf(result)).toEqual(['Query.books root 1', '  Book.publisher join 1 | lookup=2', '  Book.authors snapshot 1 | join=3 lookup=2']);
  });

  it('lists each aggregate with how it is read: from the counter, or one aggregate per level with its parts', () => {
    expect(rowsOf(plan('{ posts(first: 10) { commentsAggregate { count } } }'))).toEqual([
      'Query.posts root 1',
      '  Post.commentsAggregate aggregate 0 | read from its parent\'s counter Post.commentCount, no command',
    ]);
    const grouped = plan('{ people(first: 10) { tasksAggregate(done: true) { count groupBy(by: [DONE]) { count } } } }');
    expect(grouped.estimate.roundTrips).toBe(2);
    expect(rowsOf(grouped)).toEqual([
      'Query.people root 1',
      '  Person.tasksAggregate aggregate 1 | aggregate on tasks: $match ownerId $in keys, $group by ownerId, 1 groupBy: $group by ownerId and key, $topN per parent (parts of one command, by $unionWith)',
    ]);
  });

  it('marks overridden strategies and prices the schema default as the alternative', () => {
    const result = plan('{ posts(first: 10) { recentComments { author } } }', { 'Post.recentComments': 'join' });
    expect(result.estimate.roundTrips).toBe(2);
    expect(rowsOf(result)).toEqual(['Query.posts root 1', '  Post.recentComments join* 1 | embedded=1 lookup=1']);
  });

  it('nests rows under the relation they hang from, through embedded fields and fragments', () => {
    const result = plan(`
      query P($id: ID!) { person(id: $id) { ...Holdings tasks { description owner { lastName } } } }
      fragment Holdings on Person { holdings { numberHeld stock { symbol } } }`, {}, { id: '6955b9000100000000000001' });
    expect(result.operationName).toBe('P');
    expect(rowsOf(result)).toEqual([
      'Query.person root 1',
      '  Person.holdings embedded 0',
      '    Holding.stock join 1 | lookup=3',
      '  Person.tasks join 1 | lookup=3',
      '    Task.owner join 1 | lookup=3',
    ]);
    expect(result.estimate.roundTrips).toBe(4);
  });

  it('a root list the resolver will reject (first over 100) sends nothing, and says why', () => {
    const rejected = plan('{ hosts(first: 500) { name logs(first: 5) { message } } }');
    expect(rowsOf(rejected)).toEqual(['Query.hosts root 0', '  Host.logs join 0 | lookup=0']);
    expect(rejected.rows[0]).toMatchObject({ kind: 'root', rejected: 'first must be between 0 and 100, got 500' });
    expect(formatPlan(rejected, DEFAULT_COST_LIMITS, {})).toContain('sends nothing: first must be between 0 and 100, got 500 (BAD_USER_INPUT)');
    expect(plan('{ hosts(first: 0) { name } }').rows[0]).not.toHaveProperty('rejected');
    expect(plan('{ hosts(first: 20) { name logs(first: 5) { message } } }').estimate.roundTrips).toBe(2);
  });

  it('estimates documents with the assumed list size it is given (DOCJOIN_ASSUMED_LIST_SIZE), 20 by default', () => {
    const query = '{ books(first: 50) { name publisher { name } authors { name countOfBooks } } }';
    expect(plan(query).estimate).toEqual({ roundTrips: 3, documents: 50 + 50 + 50 * 20, depth: 2, responseNodes: 50 + 50 + 50 * 20, responseBytes: 50 * 50 + 50 * 26 + 50 * 20 * 58 });
    expect(plan(query, {}, {}, { assumedListSize: 5 }).estimate).toEqual({ roundTrips: 3, documents: 50 + 50 + 50 * 5, depth: 2, responseNodes: 50 + 50 + 50 * 5, responseBytes: 50 * 50 + 50 * 26 + 50 * 5 * 58 });
  });

  it('a mutation: the root row is its write unit plus the read back, with the write estimate and how many times it runs', () => {
    const id = '6955b9000800000000000001';
    const result = plan(`mutation { a: publishBook(input: { name: "n", isbn: "1", pages: 1, publishedAt: "2024-01-01T00:00:00Z", publisherId: "${id}", authorIds: ["${id}"] }) { id }
      b: publishBook(input: { name: "m", isbn: "2", pages: 1, publishedAt: "2024-01-01T00:00:00Z", publisherId: "${id}", authorIds: ["${id}"] }) { id publisher { name } } }`);
    // Each: 5 (2 reads, 2 writes, commit) + 1 read back; b's publisher join 1. Documents: publisher, up to
    // 10 authors, the authors' update (it may return the document whose counter it bumps), the read back.
    // Response objects: the two books ({"id":v} and {"id":v,"publisher":}), and b's publisher ({"name":v}).
    expect(result.estimate).toEqual({ roundTrips: 13, documents: 2 * (1 + 10 + 1 + 1) + 1, depth: 2, responseNodes: 3, responseBytes: 24 + 37 + 26 });
    expect(rowsOf(result)).toEqual(['Mutation.publishBook root 12', '  Book.publisher join 1 | lookup=13']);
    expect(result.rows[0]).toMatchObject({ writes: { times: 2, estimate: { roundTrips: 5, documents: 12, reads: 2, writes: ['books', 'authors'], commit: true } } });
  });
});
