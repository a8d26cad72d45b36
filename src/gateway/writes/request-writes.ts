import type { GraphQLResolveInfo, ResponsePath } from 'graphql';
import type { CostLedger } from '../request/cost/cost-ledger';
import { invariant, InvariantError, TransactionConflict } from '../errors/internal-errors';
import type { MongoFunnel } from '../request/mongo/mongo-funnel';
import type { WriteUnitEstimate } from './estimate-write-unit';
import { TransactionRetries, type TransactionRetryBounds } from './transaction-retries';
import { writeConflict } from './write-errors';
import type { WriteModel } from '../startup/write-model/write-model-types';
import type { Projection } from '../operation/planning/projection';
import { WriteUnit, type ReturnedDocument } from './write-unit';
import type { ReferenceLocks } from './reference-locks';
import type { MutationWritePlans } from './write-plan';
import type { ViewerAccess } from '../request/access/viewer-access';
import type { ComparisonRefusal } from '../request/access/comparison-refusal';

/** How write units run. */
export interface WriteOptions {
  /**
   * `auto` (default): one transaction per mutation when the server supports them (hello has setName,
   * or a mongos). `never`: the non-atomic ordered path, as against a standalone server (tests force it).
   */
  readonly transactions?: 'auto' | 'never';
}

/** What the request reads after a mutation: the joins under its field, and where the documents its writes returned go. */
export interface MutationReadBack {
  /** Per collection, the paths the joins right under the mutation field `info` read of documents they load by `_id` (joinsById). */
  joinsById(info: GraphQLResolveInfo): ReadonlyMap<string, Projection>;
  /** Documents a committed write unit returned: the loads under the mutation field at `path` find them read. */
  remember(returned: readonly ReturnedDocument[], path: ResponsePath): void;
  /** A write unit ran, or stopped part way: no document the request read before it answers a load after it. */
  forgetReads(): void;
}

/** The write side of one request (`context.writes`): each mutation field runs its writes through `run`. */
export class RequestWrites {
  constructor(
    private readonly readBack: MutationReadBack,
    private readonly model: WriteModel,
    private readonly locks: ReferenceLocks,
    private readonly funnel: MongoFunnel,
    private readonly ledger: CostLedger,
    private readonly transactions: () => Promise<boolean>,
    /** Per Mutation field name, the bound its write plan gives one attempt (write-runtime.ts). */
    private readonly estimates: ReadonlyMap<string, WriteUnitEstimate>,
    private readonly retryBounds: TransactionRetryBounds,
    private readonly access?: ViewerAccess,
    private readonly comparisonRefusal?: ComparisonRefusal,
    /** Per Mutation field name, its write plan: what its unit may call. */
    private readonly plans: MutationWritePlans = {},
  ) {}

  /**
   * Runs `work` as one write unit: in one transaction when the server supports it, else in order,
   * reported as `atomic: false` in `extensions.cost.writes`. Each attempt may send at most the commands
   * the field's write plan allows. A transaction that fails on a transient error (a write conflict) runs
   * again after a backoff, within `retryBounds` and the operation's round-trip limit; past them the
   * mutation fails with WRITE_CONFLICT, nothing written. The documents the committed attempt's updates
   * returned for the selection's joins (WriteUnit `returning`) are handed to them.
   */
  async run<T>(info: GraphQLResolveInfo, work: (unit: WriteUnit) => Promise<T>): Promise<T> {
    const coordinate = `${info.parentType.name}.${info.fieldName}`;
    const estimate = info.parentType === info.schema.getMutationType() ? this.estimates.get(info.fieldName) : undefined;
    if (!estimate) throw new InvariantError(`${coordinate} runs a write unit but has no write plan (only Mutation fields with one may write)`);
    const transaction = await this.transactions();
    // Without a transaction nothing proves a reference's target by its update: the unit reads it.
    const budget = { coordinate, commands: estimate.reads + estimate.writes.length + (transaction ? 0 : estimate.provedReads) };
    const unit = this.ledger.recordWriteUnit({ atomic: transaction, field: coordinate });
    const scope = { ledger: this.ledger, fields: [coordinate] };
    const retries = new TransactionRetries(this.retryBounds, () => this.ledger.mayRetry(unit));
    const returning = this.readBack.joinsById(info);
    let attempt: WriteUnit | undefined;
    try {
      const result = await this.funnel.runWriteUnit(scope, unit, { transaction, retries }, (writer) => work((attempt = new WriteUnit(this.model, this.locks, writer, budget, returning, this.access, info.fieldName, (change) => unit.noteSourceChange(change), this.comparisonRefusal, () => unit.conceal(), this.plans[info.fieldName]))));
      this.readBack.forgetReads();
      if (attempt) this.readBack.remember(attempt.returned, info.path);
      return result;
    } catch (error) {
      this.readBack.forgetReads();
      if (!(error instanceof TransactionConflict)) throw error;
      invariant(retries.stoppedBy, 'a transaction conflict ends a write unit only once its retries stop');
      throw writeConflict(coordinate, error.attempts, retries.stoppedBy, error);
    }
  }
}
