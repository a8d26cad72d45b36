import type { GraphQLResolveInfo } from 'graphql';
import type { GatewayContext } from '../context/request-context';
import type { CostLedger } from '../cost/cost-ledger';
import type { MongoFunnel } from '../mongo/mongo-funnel';
import type { WriteModel } from './write-model-types';
import { WriteUnit, type WriteUnitOptions } from './write-unit';

/** How write units run. */
export interface WriteOptions extends WriteUnitOptions {
  /**
   * `auto` (default): one transaction per mutation when the server supports them (hello has setName,
   * or a mongos). `never`: the non-atomic ordered path, as against a standalone server (tests force it).
   */
  readonly transactions?: 'auto' | 'never';
}

/** The write side of one request: each mutation field runs its writes through `run`. */
export class RequestWrites {
  constructor(
    private readonly model: WriteModel,
    private readonly funnel: MongoFunnel,
    private readonly ledger: CostLedger,
    private readonly transactions: () => Promise<boolean>,
    private readonly options: WriteOptions,
  ) {}

  /**
   * Runs `work` as one write unit: in one transaction when the server supports it (the driver retries
   * it on transient errors), else in order, reported as `atomic: false` in `extensions.cost.writes`.
   */
  async run<T>(info: GraphQLResolveInfo, work: (unit: WriteUnit) => Promise<T>): Promise<T> {
    const transaction = await this.transactions();
    const unit = this.ledger.recordWriteUnit({ atomic: transaction });
    const scope = { ledger: this.ledger, fields: [`${info.parentType.name}.${info.fieldName}`] };
    return this.funnel.runWriteUnit(scope, unit, { transaction }, (writer) => work(new WriteUnit(this.model, writer, this.options)));
  }
}

/**
 * The request context as the gateway builds it (create-gateway.ts attaches `writes` to every
 * GatewayContext), and the context type of the generated resolver types (codegen.yml), so mutation
 * resolvers reach their write side as `context.writes`, checked by the compiler.
 */
export interface WritingContext extends GatewayContext {
  readonly writes: RequestWrites;
}
