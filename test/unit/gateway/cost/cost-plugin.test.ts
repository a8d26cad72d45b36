import type { GraphQLRequestContextWillSendResponse, GraphQLRequestListener } from '@apollo/server';
import { ApolloServerPluginDocjoinCost } from '../../../../src/gateway/cost/cost-plugin';
import { CostLedger } from '../../../../src/gateway/cost/cost-ledger';

type Context = { ledger: CostLedger };

async function send(extensions: Record<string, unknown> | undefined) {
  const ledger = new CostLedger();
  ledger.recordCommand({ collection: 'books', commandName: 'find', fields: ['Query.books'], documents: 3, bytes: 100, durationMs: 1, ok: true });
  const listener = (await ApolloServerPluginDocjoinCost<Context>().requestDidStart!({} as never)) as GraphQLRequestListener<Context>;
  const singleResult = { data: {}, extensions };
  await listener.willSendResponse!({ response: { body: { kind: 'single', singleResult } }, contextValue: { ledger } } as unknown as GraphQLRequestContextWillSendResponse<Context>);
  return singleResult.extensions;
}

describe('ApolloServerPluginDocjoinCost', () => {
  it('writes the ledger report to extensions.cost', async () => {
    expect(await send(undefined)).toEqual({
      cost: { roundTrips: 1, documents: 3, bytes: 100, durationMs: 1, fields: {}, collections: { books: { roundTrips: 1, documents: 3 } } },
    });
  });

  it('never overwrites a cost key another plugin wrote', async () => {
    expect(await send({ cost: 'theirs', other: 1 })).toEqual({ cost: 'theirs', other: 1 });
  });
});
