import type { GraphQLResolveInfo } from 'graphql';
import type { CostLedger } from '../cost/cost-ledger';
import { invariant, InvariantError, TransactionConflict } from '../errors/internal-errors';
import type { MongoFunnel } from '../mongo/mongo-funnel';
import type { WriteUnitEstimate } from './estimate-write-unit';
import { TransactionRetries, type TransactionRetryBounds } from './transaction-retries';
import { writeConflict } from './write-errors';
import type { WriteModel } from './write-model-types';
import { WriteUnit } from './write-unit';

/** How write units run. */
export interface WriteOptions {
  /**
   * `auto` (default): one transaction per mutation when the server supports them (hello has setName,
   * or a mongos). `never`: the non-atomic ordered path, as against a standalone server (tests force it).
   */
  readonly transactions?: 'auto' | 'never';
}

/** The write side of one request (`context.writes`): each mutation field runs its writes through `run`. */
export class RequestWrites {
  constructor(
    private readonly model: WriteModel,
    private readonly funnel: MongoFunnel,
    private readonly ledger: CostLedger,
    private readonly transactions: () => Promise<boolean>,
    /** Per Mutation field name, the bound its write plan gives one attempt (write-runtime.ts). */
    private readonly estimates: ReadonlyMap<string, WriteUnitEstimate>,
    private readonly retryBounds: TransactionRetryBounds,
  ) {}

  /**
   * Runs `work` as one write unit: in one transaction when the server supports it, else in order,
   * reported as `atomic: false` in `extensions.cost.writes`. Each attempt may send at most the commands
   * the field's write plan allows. A transaction that fails on a transient error (a write conflict) runs
   * again after a backoff, within `retryBounds` and the operation's round-trip limit; past them the
   * mutation fails with WRITE_CONFLICT, nothing written.
   */
  async run<T>(info: GraphQLResolveInfo, work: (unit: WriteUnit) => Promise<T>): Promise<T> {
    const coordinate = `${info.parentType.name}.${info.fieldName}`;
    const estimate = info.parentType === info.schema.getMutationType() ? this.estimates.get(info.fieldName) : undefined;
    if (!estimate) throw new InvariantError(`${coordinate} runs a write unit but has no write plan (only Mutation fields with one may write)`);
    const budget = { coordinate, commands: estimate.reads + estimate.writes.length };
    const transaction = await this.transactions();
    const unit = this.ledger.recordWriteUnit({ atomic: transaction, field: coordinate });
    const scope = { ledger: this.ledger, fields: [coordinate] };
    const retries = new TransactionRetries(this.retryBounds, () => this.ledger.mayRetry(unit));
    try {
      return await this.funnel.runWriteUnit(scope, unit, { transaction, retries }, (writer) => work(new WriteUnit(this.model, writer, budget)));
    } catch (error) {
      if (!(error instanceof TransactionConflict)) throw error;
      invariant(retries.stoppedBy, 'a transaction conflict ends a write unit only once its retries stop');
      throw writeConflict(coordinate, error.attempts, retries.stoppedBy, error);
    }
  }
}
