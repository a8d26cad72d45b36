import type { CostLedger } from '../cost/cost-ledger';
import type { MongoFunnel } from '../mongo/mongo-funnel';
import { AggregateBatcher } from './aggregate-batcher';
import { DocumentLoader } from './document-loader';
import { ReverseJoinLoader, reverseJoinSpecKey, type ReverseJoinSpec } from './reverse-join-loader';

/**
 * The DataLoaders of ONE request: one per (collection, key field), plus one per reverse-join query shape,
 * whose bounded aggregates on one collection go out together (aggregate-batcher.ts).
 * Created lazily, so fields joining the same collection by the same key share a loader (and its batch).
 */
export class LoaderRegistry {
  readonly #byKey = new Map<string, DocumentLoader>();
  readonly #byReference = new Map<string, ReverseJoinLoader>();
  readonly #aggregates = new Map<string, AggregateBatcher>();

  constructor(
    private readonly funnel: MongoFunnel,
    private readonly ledger: CostLedger,
  ) {}

  byKey(collection: string, keyField: string): DocumentLoader {
    const id = `${collection}|${keyField}`;
    let loader = this.#byKey.get(id);
    if (!loader) {
      loader = new DocumentLoader(this.funnel, this.ledger, collection, keyField);
      this.#byKey.set(id, loader);
    }
    return loader;
  }

  byReference(spec: ReverseJoinSpec): ReverseJoinLoader {
    const id = reverseJoinSpecKey(spec);
    let loader = this.#byReference.get(id);
    if (!loader) {
      let batcher = this.#aggregates.get(spec.collection);
      if (!batcher) this.#aggregates.set(spec.collection, (batcher = new AggregateBatcher(this.funnel, this.ledger, spec.collection)));
      loader = new ReverseJoinLoader(this.funnel, this.ledger, spec, batcher);
      this.#byReference.set(id, loader);
    }
    return loader;
  }
}
