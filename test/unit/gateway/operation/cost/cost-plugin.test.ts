import { ApolloServer, type GraphQLRequestContextDidResolveOperation, type GraphQLRequestContextWillSendResponse, type GraphQLRequestListener } from '@apollo/server';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { GraphQLError } from 'graphql';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { CostEstimate } from '../../../../../src/gateway/operation/estimate/estimate-operation';
import type { EstimateViolation } from '../../../../../src/gateway/operation/cost/estimate-check';
import { EstimateViolationLog } from '../../../../support/estimate-violation-log';
import { assertNoEstimateViolations } from '../../../../support/assert-no-estimate-violations';
import { ApolloServerPluginDocjoinCost, type DocjoinCostOptions } from '../../../../../src/gateway/operation/cost/cost-plugin';
import { CostLedger } from '../../../../../src/gateway/request/cost/cost-ledger';

type Context = { ledger: CostLedger };

/** What Apollo hands every hook: a schema with both roots, so a mutation is one docjoin runs. */
const SCHEMA = makeExecutableSchema({ typeDefs: 'type Query { a: Int } type Mutation { b: Int }' });

async function run(options: DocjoinCostOptions<Context>, { extensions, roundTrips = 1, operation = 'query', contextValue = { ledger: new CostLedger() } }: { extensions?: Record<string, unknown>; roundTrips?: number; operation?: string; contextValue?: Context } = {}) {
  const { ledger } = contextValue;
  for (let i = 0; i < roundTrips; i++) ledger.recordCommand({ collection: 'books', commandName: 'find', fields: ['Query.books'], documents: 3, bytes: 100, durationMs: 1, ok: true });
  const listener = (await ApolloServerPluginDocjoinCost<Context>(options).requestDidStart!({} as never)) as GraphQLRequestListener<Context>;
  const request = { contextValue, operation: { operation }, request: {}, schema: SCHEMA };
  let rejected: unknown;
  try {
    await listener.didResolveOperation!(request as unknown as GraphQLRequestContextDidResolveOperation<Context>);
  } catch (error) {
    rejected = error;
  }
  const singleResult: { data: unknown; extensions?: Record<string, unknown>; errors?: unknown[] } = { data: {}, extensions };
  await listener.willSendResponse!({ ...request, response: { body: { kind: 'single', singleResult } } } as unknown as GraphQLRequestContextWillSendResponse<Context>);
  return { rejected, result: singleResult };
}

/** The ledger of a request the plugin saw through to its response, and whether that request's context (holding many documents) can be collected while the ledger is kept. */
async function ledgerAfterRequest(options: DocjoinCostOptions<Context>): Promise<{ ledger: CostLedger; requestGone: () => Promise<boolean> }> {
  const ledger = new CostLedger();
  const contextRef = await servedContext(options, ledger);
  return {
    ledger,
    requestGone: async () => {
      // A WeakRef keeps its target for the rest of the job that made it.
      await new Promise((resolve) => setImmediate(resolve));
      collectGarbage();
      return contextRef.deref() === undefined;
    },
  };
}

async function servedContext(options: DocjoinCostOptions<Context>, ledger: CostLedger): Promise<WeakRef<object>> {
  const contextValue = { ledger, documents: Array.from({ length: 1_000 }, (_, id) => ({ id, name: 'a book' })) };
  await run(options, { contextValue, roundTrips: 0 });
  return new WeakRef(contextValue);
}

/** A full garbage collection, without starting jest with --expose-gc. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

const estimate = (roundTrips: number, documents = 10, depth = 2) => () => ({ roundTrips, documents, depth, responseNodes: documents, responseBytes: 0 });

describe('ApolloServerPluginDocjoinCost', () => {
  it('refuses before the estimate and the admission, and gives back an admission another plugin\'s refusal overtook', async () => {
    const admitted: string[] = [];
    const refused = await run({ estimate: estimate(2), refuse: () => { throw new GraphQLError('no'); }, admit: async () => { admitted.push('admit'); return () => void admitted.push('release'); } });
    expect((refused.rejected as GraphQLError).message).toBe('no');
    expect(admitted).toEqual([]);
    // The response goes out (another plugin refused) while the admission still waits: it is released once it comes.
    let admit!: (release: () => void) => void;
    const listener = (await ApolloServerPluginDocjoinCost<Context>({ estimate: estimate(2), admit: () => new Promise((resolve) => (admit = resolve)) }).requestDidStart!({} as never)) as GraphQLRequestListener<Context>;
    const request = { contextValue: { ledger: new CostLedger() }, operation: { operation: 'query' }, request: {} };
    const waiting = listener.didResolveOperation!(request as unknown as GraphQLRequestContextDidResolveOperation<Context>);
    await listener.willSendResponse!({ ...request, response: { body: { kind: 'single', singleResult: { data: null } } } } as unknown as GraphQLRequestContextWillSendResponse<Context>);
    let released = 0;
    admit(() => void (released += 1));
    await waiting;
    await new Promise((resolve) => setImmediate(resolve));
    expect(released).toBe(1);
  });

  it('writes the ledger report and the estimate to extensions.cost', async () => {
    const { result } = await run({ estimate: estimate(2) });
    expect(result.extensions).toEqual({
      cost: { roundTrips: 1, documents: 3, bytes: 100, durationMs: 1, estimatedRoundTrips: 2, estimatedDocuments: 10, naiveRoundTrips: 1, fields: {}, collections: { books: { roundTrips: 1, documents: 3 } } },
    });
  });

  it('reports estimatedRoundTrips 0 when there was no estimate', async () => {
    expect((await run({})).result.extensions!.cost).toMatchObject({ estimatedRoundTrips: 0 });
  });

  it('never overwrites a cost key another plugin wrote', async () => {
    expect((await run({}, { extensions: { cost: 'theirs', other: 1 } })).result.extensions).toEqual({ cost: 'theirs', other: 1 });
  });

  it('adds the commands view only when commandsView says so', async () => {
    expect(((await run({ commandsView: () => false })).result.extensions!.cost as { commands?: unknown }).commands).toBeUndefined();
    expect(((await run({ commandsView: () => true })).result.extensions!.cost as { commands?: unknown }).commands).toEqual([
      { collection: 'books', command: 'find', fields: ['Query.books'], documents: 3, durationMs: 1 },
    ]);
  });

  it.each([
    [{ maxDepth: 1 }, { estimated: 2, max: 1, limit: 'depth' }],
    [{ maxRoundTrips: 4 }, { estimated: 5, max: 4, limit: 'roundTrips' }],
    [{ maxDocuments: 9 }, { estimated: 10, max: 9, limit: 'documents' }],
    [{ maxDepth: 1, maxRoundTrips: 4, maxDocuments: 9 }, { estimated: 2, max: 1, limit: 'depth' }],
  ])('rejects an operation over %j before execution', async (limits, cost) => {
    const { rejected } = await run({ estimate: estimate(5), limits });
    expect(rejected).toBeInstanceOf(GraphQLError);
    expect((rejected as GraphQLError).extensions).toEqual({ code: 'COST_LIMIT_EXCEEDED', cost, http: { status: 400 } });
  });

  it('lets an operation exactly at every limit through', async () => {
    expect((await run({ estimate: estimate(5), limits: { maxDepth: 2, maxRoundTrips: 5, maxDocuments: 10 } })).rejected).toBeUndefined();
  });

  it("bounds the operation's reads at run time by maxRoundTrips, and the ledger holding that bound does not hold the request", async () => {
    // An admission's release holds the request's context, as the gateway's does (it settles the client's budget from it).
    const admit = async (_estimate: CostEstimate, context: Context) => () => void context.ledger.totals();
    const { ledger, requestGone } = await ledgerAfterRequest({ estimate: estimate(2), limits: { maxRoundTrips: 3 }, admit });
    // A ledger can outlive its request (promoted to V8's old generation, a dead object keeps what it points to until a full collection).
    expect(await requestGone()).toBe(true);
    ledger.startRead(['Query.a']);
    ledger.startRead(['Query.a']);
    ledger.startRead(['Query.a']);
    expect(() => ledger.startRead(['Query.a'])).toThrow(/limit of 3 round trips \(.*\): it read more than the 2 its estimate counted for Query\.a/);
  });

  it('with checkEstimate, flags a query or a mutation whose measured round trips exceed the estimate', async () => {
    const below = await run({ estimate: estimate(1), checkEstimate: true }, { roundTrips: 2 });
    expect(below.result.errors).toEqual([
      { message: 'docjoin: the static estimate (1 round trips) is below the measured cost (2)', extensions: { code: 'INTERNAL_SERVER_ERROR' } },
    ]);
    expect((await run({ estimate: estimate(2), checkEstimate: true }, { roundTrips: 2 })).result.errors).toBeUndefined();
    expect((await run({ estimate: estimate(1), checkEstimate: true }, { roundTrips: 2, operation: 'mutation' })).result.errors).toEqual(below.result.errors);
  });

  it('with checkEstimate, flags documents over the estimate too, and holds an operation without an estimate to zero', async () => {
    // 2 commands of 3 documents each: 6 documents against an estimate of 5.
    const documents = await run({ estimate: estimate(2, 5), checkEstimate: true }, { roundTrips: 2 });
    expect(documents.result.errors).toEqual([
      { message: 'docjoin: the static estimate (5 documents) is below the measured cost (6)', extensions: { code: 'INTERNAL_SERVER_ERROR' } },
    ]);
    const unestimated = await run({ checkEstimate: true }, { roundTrips: 1 });
    expect(unestimated.result.errors).toEqual([
      { message: 'docjoin: the static estimate (0 round trips) is below the measured cost (1)', extensions: { code: 'INTERNAL_SERVER_ERROR' } },
      { message: 'docjoin: the static estimate (0 documents) is below the measured cost (3)', extensions: { code: 'INTERNAL_SERVER_ERROR' } },
    ]);
  });

  it('passes each violation to onEstimateViolation, and nothing without checkEstimate', async () => {
    const seen: EstimateViolation[] = [];
    await run({ estimate: estimate(1, 2), checkEstimate: true, onEstimateViolation: (violation) => seen.push(violation) }, { roundTrips: 2 });
    expect(seen.map(({ measure, estimated, measured }) => ({ measure, estimated, measured }))).toEqual([
      { measure: 'roundTrips', estimated: 1, measured: 2 },
      { measure: 'documents', estimated: 2, measured: 6 },
    ]);
    await run({ estimate: estimate(1, 2), onEstimateViolation: (violation) => seen.push(violation) }, { roundTrips: 2 });
    expect(seen).toHaveLength(2);
    await run({ estimate: estimate(1, 2), checkEstimate: true, onEstimateViolation: (violation) => seen.push(violation) }, { roundTrips: 2, operation: 'mutation' });
    expect(seen).toHaveLength(4);
  });
});

/**
 * The check end to end through a real ApolloServer (no database): a resolver records the commands a
 * request "sent" in its ledger, and a deliberately wrong estimator predicts too little.
 */
describe('the estimate check through ApolloServer', () => {
  const typeDefs = /* GraphQL */ `
    type Query { books(first: Int = 2): [Book!]! }
    type Mutation { touch: Int! }
    type Book { name: String! }
  `;
  const resolvers = {
    Query: {
      books: (_parent: unknown, args: { first: number }, context: Context) => {
        // One find returning `first` documents, then one more command for a pretend join.
        context.ledger.recordCommand({ collection: 'books', commandName: 'find', fields: ['Query.books'], documents: args.first, bytes: 10, durationMs: 1, ok: true });
        context.ledger.recordCommand({ collection: 'publishers', commandName: 'find', fields: ['Book.publisher'], documents: 1, bytes: 10, durationMs: 1, ok: true });
        return Array.from({ length: args.first }, (_, i) => ({ name: `b${i}` }));
      },
    },
    Mutation: {
      // A write unit whose transaction ran twice (a write conflict): a read and an update per attempt, then a commit.
      touch: (_parent: unknown, _args: unknown, context: Context) => {
        const unit = context.ledger.recordWriteUnit({ atomic: true });
        const send = (commandName: string, documents: number) =>
          context.ledger.recordCommand({ collection: 'books', commandName, fields: ['Mutation.touch'], documents, bytes: 10, durationMs: 1, ok: true, writeUnit: unit.tag });
        unit.startAttempt();
        send('find', 1);
        send('update', 0);
        unit.startAttempt();
        send('find', 1);
        send('update', 0);
        send('commitTransaction', 0);
        unit.finish('committed');
        return 1;
      },
    },
  };

  async function serverWith(estimateOf: () => CostEstimate, recorder: (violation: EstimateViolation) => void) {
    const server = new ApolloServer<Context>({
      schema: makeExecutableSchema({ typeDefs, resolvers }),
      plugins: [ApolloServerPluginDocjoinCost<Context>({ estimate: estimateOf, checkEstimate: true, onEstimateViolation: recorder })],
    });
    await server.start();
    return server;
  }

  it('a wrong estimator is caught: the recorder gets the operation and both numbers', async () => {
    const log = new EstimateViolationLog();
    // Wrong on purpose: one round trip (ignores the join) and `first` documents (ignores the publisher).
    const server = await serverWith(() => ({ roundTrips: 1, documents: 3, depth: 2, responseNodes: 3, responseBytes: 0 }), log.record);
    try {
      const query = 'query Shelf($n: Int) { books(first: $n) { name } }';
      const response = await server.executeOperation({ query, variables: { n: 3 } }, { contextValue: { ledger: new CostLedger() } });
      expect(response.body.kind === 'single' && response.body.singleResult.errors?.map((error) => error.message)).toEqual([
        'docjoin: the static estimate (1 round trips) is below the measured cost (2)',
        'docjoin: the static estimate (3 documents) is below the measured cost (4)',
      ]);
      expect(log.violations).toEqual([
        { measure: 'roundTrips', estimated: 1, measured: 2, operationName: 'Shelf', query, variables: { n: 3 } },
        { measure: 'documents', estimated: 3, measured: 4, operationName: 'Shelf', query, variables: { n: 3 } },
      ]);
      expect(() => assertNoEstimateViolations(log, 'the wrong estimator')).toThrow(
        'The static cost estimate was below the measured cost in the wrong estimator (2 violations):\n' +
          `  - roundTrips measured 2 > estimated 1 for Shelf: ${query} with variables {"n":3}\n` +
          `  - documents measured 4 > estimated 3 for Shelf: ${query} with variables {"n":3}`,
      );
      expect(log.violations).toEqual([]); // the assertion empties the log, so one failure does not repeat
    } finally {
      await server.stop();
    }
  });

  it('a right estimator records nothing, for a query and for a mutation', async () => {
    const log = new EstimateViolationLog();
    const server = await serverWith(() => ({ roundTrips: 3, documents: 3, depth: 2, responseNodes: 3, responseBytes: 0 }), log.record);
    try {
      await server.executeOperation({ query: '{ books { name } }' }, { contextValue: { ledger: new CostLedger() } });
      await server.executeOperation({ query: 'mutation { touch }' }, { contextValue: { ledger: new CostLedger() } });
      expect(log.violations).toEqual([]);
    } finally {
      await server.stop();
    }
  });

  it('a mutation is held to one attempt per write unit: the retried attempt is left out, the rest is checked', async () => {
    const log = new EstimateViolationLog();
    // touch sends 5 commands and reads 2 documents; its retried first attempt is 2 commands and 1 document.
    const exact = await serverWith(() => ({ roundTrips: 3, documents: 1, depth: 0, responseNodes: 1, responseBytes: 0 }), log.record);
    const below = await serverWith(() => ({ roundTrips: 2, documents: 0, depth: 0, responseNodes: 0, responseBytes: 0 }), log.record);
    try {
      const response = await exact.executeOperation({ query: 'mutation { touch }' }, { contextValue: { ledger: new CostLedger() } });
      expect(response.body.kind === 'single' && response.body.singleResult.extensions?.cost).toMatchObject({ roundTrips: 5, documents: 2, estimatedRoundTrips: 3 });
      expect(log.violations).toEqual([]);
      await below.executeOperation({ query: 'mutation Touch { touch }' }, { contextValue: { ledger: new CostLedger() } });
      expect(log.take().map(({ measure, estimated, measured, operationName }) => ({ measure, estimated, measured, operationName }))).toEqual([
        { measure: 'roundTrips', estimated: 2, measured: 3, operationName: 'Touch' },
        { measure: 'documents', estimated: 0, measured: 1, operationName: 'Touch' },
      ]);
    } finally {
      await exact.stop();
      await below.stop();
    }
  });
});
