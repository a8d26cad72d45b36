import type { GraphQLRequestContextDidResolveOperation, GraphQLRequestContextWillSendResponse, GraphQLRequestListener } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { ApolloServerPluginDocjoinCost, type DocjoinCostOptions } from '../../../../src/gateway/cost/cost-plugin';
import { CostLedger } from '../../../../src/gateway/cost/cost-ledger';

type Context = { ledger: CostLedger };

async function run(options: DocjoinCostOptions<Context>, { extensions, roundTrips = 1, operation = 'query' }: { extensions?: Record<string, unknown>; roundTrips?: number; operation?: string } = {}) {
  const ledger = new CostLedger();
  for (let i = 0; i < roundTrips; i++) ledger.recordCommand({ collection: 'books', commandName: 'find', fields: ['Query.books'], documents: 3, bytes: 100, durationMs: 1, ok: true });
  const listener = (await ApolloServerPluginDocjoinCost<Context>(options).requestDidStart!({} as never)) as GraphQLRequestListener<Context>;
  const request = { contextValue: { ledger }, operation: { operation }, request: {} };
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

const estimate = (roundTrips: number, documents = 10, depth = 2) => () => ({ roundTrips, documents, depth });

describe('ApolloServerPluginDocjoinCost', () => {
  it('writes the ledger report and the estimate to extensions.cost', async () => {
    const { result } = await run({ estimate: estimate(2) });
    expect(result.extensions).toEqual({
      cost: { roundTrips: 1, documents: 3, bytes: 100, durationMs: 1, estimatedRoundTrips: 2, naiveRoundTrips: 1, fields: {}, collections: { books: { roundTrips: 1, documents: 3 } } },
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

  it('with checkEstimate, flags a query whose measured round trips exceed the estimate (not a mutation)', async () => {
    const below = await run({ estimate: estimate(1), checkEstimate: true }, { roundTrips: 2 });
    expect(below.result.errors).toEqual([
      { message: 'docjoin: the static estimate (1 round trips) is below the measured cost (2)', extensions: { code: 'INTERNAL_SERVER_ERROR' } },
    ]);
    expect((await run({ estimate: estimate(2), checkEstimate: true }, { roundTrips: 2 })).result.errors).toBeUndefined();
    expect((await run({ estimate: estimate(1), checkEstimate: true }, { roundTrips: 2, operation: 'mutation' })).result.errors).toBeUndefined();
  });
});
