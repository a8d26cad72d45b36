import type { GraphQLResolveInfo } from 'graphql';
import type { GatewayContext } from '../context/request-context';
import type { CostLedger } from '../cost/cost-ledger';
import { InvariantError } from '../errors/internal-errors';
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
    this.ledger.recordWriteUnit({ atomic: transaction });
    const scope = { ledger: this.ledger, fields: [`${info.parentType.name}.${info.fieldName}`] };
    return this.funnel.runWriteUnit(scope, { transaction }, (writer) => work(new WriteUnit(this.model, writer, this.options)));
  }
}

/** A request context the gateway built with its writes attached (create-gateway.ts). */
export interface WritingContext extends GatewayContext {
  readonly writes: RequestWrites;
}

export function writesOf(context: GatewayContext): RequestWrites {
  const writes = (context as Partial<WritingContext>).writes;
  if (!writes) throw new InvariantError('this request context has no writes; build it with gateway.createContext()');
  return writes;
}
