import { makeExecutableSchema } from '@graphql-tools/schema';
import type { CostLedger } from '../cost/cost-ledger';
import { DatabaseFailure } from '../errors/internal-errors';
import type { MongoFunnel } from '../mongo/mongo-funnel';
import type { StorageMap } from '../storage-map/storage-map-types';
import { buildWriteModel } from './build-write-model';
import { RequestWrites, type WriteOptions } from './request-writes';
import type { WriteModel } from './write-model-types';

/** The gateway's write side, built once at startup. */
export interface WriteRuntime {
  readonly model: WriteModel;
  forRequest(ledger: CostLedger): RequestWrites;
}

/**
 * Builds (and validates) the write model at startup. Whether the server runs transactions is asked
 * once, on the first write, so a gateway that never writes never sends the `hello`.
 */
export function createWriteRuntime(options: { typeDefs: readonly string[]; storageMap: StorageMap; funnel: MongoFunnel; writes?: WriteOptions }): WriteRuntime {
  // The write rules are read from the SDL with its directives (the public schema has them removed).
  const model = buildWriteModel(makeExecutableSchema({ typeDefs: [...options.typeDefs] }), options.storageMap);
  const writeOptions = options.writes ?? {};
  let supported: Promise<boolean> | undefined;
  const transactions = (): Promise<boolean> => {
    if (writeOptions.transactions === 'never') return Promise.resolve(false);
    supported ??= options.funnel.supportsTransactions().catch((error: unknown) => {
      supported = undefined; // ask again next time: the server may just have been unreachable
      throw new DatabaseFailure('$cmd', error);
    });
    return supported;
  };
  return {
    model,
    forRequest: (ledger) => new RequestWrites(model, options.funnel, ledger, transactions, writeOptions),
  };
}
