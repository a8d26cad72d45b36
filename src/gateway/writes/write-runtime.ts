import type { GraphQLObjectType } from 'graphql';
import type { CostLedger } from '../request/cost/cost-ledger';
import type { ViewerAccess } from '../request/access/viewer-access';
import type { ComparisonRefusal } from '../request/access/comparison-refusal';
import { DatabaseFailure, StorageConfigError } from '../errors/internal-errors';
import type { MongoFunnel } from '../request/mongo/mongo-funnel';
import { estimateWriteUnit, type WriteUnitEstimate } from './estimate-write-unit';
import { RequestWrites, type MutationReadBack, type WriteOptions } from './request-writes';
import type { TransactionRetryBounds } from './transaction-retries';
import type { WriteModel } from '../startup/write-model/write-model-types';
import { findWritePlanProblems, type MutationWritePlans } from './write-plan';
import { ReferenceLocks } from './reference-locks';
import { LOCK_COLLECTION } from '../documents/lock-collection';

/** The gateway's write side, built once at startup. */
export interface WriteRuntime {
  readonly model: WriteModel;
  /** Per Mutation field name: the most one attempt of its write unit sends (see estimateWriteUnit). */
  readonly estimates: ReadonlyMap<string, WriteUnitEstimate>;
  /** `access`: the viewer's rules (undefined without any), which every write unit of the request keeps. */
  /** `comparisonRefusal`: under access rules, what filtering `typeName` documents by `path` would show the viewer that it may not see. */
  forRequest(ledger: CostLedger, access: ViewerAccess | undefined, comparisonRefusal: ComparisonRefusal | undefined, readBack: MutationReadBack): RequestWrites;
  /**
   * Asks the server once, at startup, what the first mutation would ask it (whether it runs transactions;
   * the lock collection where locks are used), so no request sends commands its cost report cannot name.
   * A failure is left to the first mutation, which asks again.
   */
  prepare(): Promise<void>;
}

/**
 * Every Mutation field's write estimate, from the write model and the fields' write plans. A Mutation
 * field without a valid plan stops the start (StorageConfigError naming `Mutation.field`).
 * `transaction`: count the commit.
 */
export function buildWriteEstimates(options: {
  model: WriteModel;
  mutationType: GraphQLObjectType | null | undefined;
  plans: MutationWritePlans;
  transaction: boolean;
  readInPart?: ReadonlySet<string>;
  presetReferences?: ReadonlySet<string>;
  /** Built from the same plans when not given (referenceLocksOf). */
  locks?: ReferenceLocks;
}): ReadonlyMap<string, WriteUnitEstimate> {
  const { model, mutationType } = options;
  const problems = findWritePlanProblems(model, mutationType, options.plans, options.readInPart);
  if (problems.length > 0) throw new StorageConfigError(problems);
  const estimates = new Map<string, WriteUnitEstimate>();
  const locks = options.locks ?? referenceLocksOf(model, mutationType, options.plans);
  for (const fieldName of Object.keys(mutationType?.getFields() ?? {})) {
    const { transaction, readInPart, presetReferences } = options;
    estimates.set(fieldName, estimateWriteUnit(model, options.plans[fieldName]!, { transaction, locks, ...(readInPart && { readInPart }), ...(presetReferences && { presetReferences }) }));
  }
  return estimates;
}

/**
 * Builds (and validates) the write model and the write estimates at startup. Whether the server runs
 * transactions is asked once, at startup where the schema has mutations (`prepare`), and again by
 * the first write if that failed. The estimates count a commit unless `writes.transactions` is
 * `never` (against a standalone server they are one above what is sent).
 */
export function createWriteRuntime(options: {
  model: WriteModel;
  mutationType: GraphQLObjectType | null | undefined;
  funnel: MongoFunnel;
  plans: MutationWritePlans;
  writes?: WriteOptions;
  /** How far a transaction is retried after a transient error (the gateway options). */
  retries: TransactionRetryBounds;
  /** The collections some role reads only in part (collectionsReadInPart): their references are read, not proved. */
  readInPart?: ReadonlySet<string>;
  /** The references create rules preset from claims (presetReferences): read though the input names none. */
  presetReferences?: ReadonlySet<string>;
}): WriteRuntime {
  const writeOptions = options.writes ?? {};
  const { model } = options;
  // Once, for the estimates and the units alike.
  const locks = referenceLocksOf(model, options.mutationType, options.plans);
  const estimates = buildWriteEstimates({ ...options, locks, transaction: writeOptions.transactions !== 'never' });
  let supported: Promise<boolean> | undefined;
  const transactions = (): Promise<boolean> => {
    if (writeOptions.transactions === 'never') return Promise.resolve(false);
    supported ??= options.funnel
      .supportsTransactions()
      .then(async (inTransactions) => {
        // Only a transaction bumps a lock, and better not the one to create their collection (a cross-shard one may not).
        // A user who may not create it leaves it to the first lock's transaction: a mutation that locks nothing must not fail for it.
        if (inTransactions && locks.inUse) await options.funnel.ensureCollection(LOCK_COLLECTION).catch(() => undefined);
        return inTransactions;
      })
      .catch((error: unknown) => {
        supported = undefined; // ask again next time: the server may just have been unreachable
        throw new DatabaseFailure('$cmd', error);
      });
    return supported;
  };
  return {
    model,
    estimates,
    forRequest: (ledger, access, comparisonRefusal, readBack) => new RequestWrites(readBack, model, locks, options.funnel, ledger, transactions, estimates, options.retries, access, comparisonRefusal, options.plans),
    prepare: () => transactions().then(
      () => undefined,
      () => undefined,
    ),
  };
}

/** The lock rules of the plans of `mutationType`'s fields (plans of mutations the schema lacks change nothing). */
export function referenceLocksOf(model: WriteModel, mutationType: GraphQLObjectType | null | undefined, plans: MutationWritePlans): ReferenceLocks {
  const fields = Object.keys(mutationType?.getFields() ?? {});
  return new ReferenceLocks(model, Object.fromEntries(fields.flatMap((field) => (Object.hasOwn(plans, field) ? [[field, plans[field]!]] : []))));
}
