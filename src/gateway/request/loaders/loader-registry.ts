import type { MongoFunnel, RequestScope } from '../mongo/mongo-funnel';
import { AggregateBatcher } from './aggregate-batcher';
import { CountLoader } from './count-loader';
import { countSpecKey } from '../../operation/planning/batch-specs';
import { type CountSpec } from '../../operation/planning/batch-specs';
import { DocumentLoader } from './document-loader';
import { ReverseJoinLoader } from './reverse-join-loader';
import { FiguresLoader } from './figures-loader';
import type { AggregateRequest } from '../../operation/planning/aggregate-request';
import type { AggregateField } from '../../startup/storage-map/storage-map-types';
import { reverseJoinSpecKey, type ReverseJoinSpec } from '../../operation/planning/batch-specs';

/**
 * The DataLoaders of ONE request: one per (collection, key field), plus one per reverse-join query shape,
 * whose bounded aggregates on one collection go out together (aggregate-batcher.ts), plus one per
 * reverse-join count (a connection's totalCount), plus one per `@aggregate` field and request, whose
 * aggregates join the same batches as the bounded pages.
 * Created lazily, so fields joining the same collection by the same key share a loader (and its batch).
 */
export class LoaderRegistry {
  readonly #byKey = new Map<string, Map<string, DocumentLoader>>();
  readonly #byReference = new Map<string, ReverseJoinLoader>();
  readonly #decided = new WeakMap<object, ReverseJoinLoader>();
  readonly #aggregates = new Map<string, AggregateBatcher>();
  readonly #counts = new Map<string, CountLoader>();
  readonly #figures = new Map<string, FiguresLoader>();

  constructor(
    private readonly funnel: MongoFunnel,
    private readonly request: RequestScope,
  ) {}

  byKey(collection: string, keyField: string): DocumentLoader {
    // By collection, then key field: asked once per parent, so no key string is built for it.
    let byField = this.#byKey.get(collection);
    if (!byField) this.#byKey.set(collection, (byField = new Map()));
    let loader = byField.get(keyField);
    if (!loader) byField.set(keyField, (loader = new DocumentLoader(this.funnel, this.request, collection, keyField)));
    return loader;
  }

  /** Every document read so far is forgotten (a write may have changed it): loads after this read again. */
  forgetDocuments(): void {
    for (const byField of this.#byKey.values()) for (const loader of byField.values()) loader.forget();
  }

  byReference(spec: ReverseJoinSpec): ReverseJoinLoader {
    const id = reverseJoinSpecKey(spec);
    let loader = this.#byReference.get(id);
    if (!loader) {
      loader = new ReverseJoinLoader(this.funnel, this.request, spec, this.#batcher(spec.collection));
      this.#byReference.set(id, loader);
    }
    return loader;
  }

  /**
   * byReference for a spec that `decidedBy` (an object made once per request, such as a planned page)
   * fixes on its own: the spec and its key are built once, not once per parent.
   */
  byReferenceOnce(decidedBy: object, spec: () => ReverseJoinSpec): ReverseJoinLoader {
    let loader = this.#decided.get(decidedBy);
    if (!loader) this.#decided.set(decidedBy, (loader = this.byReference(spec())));
    return loader;
  }

  /** Children counts per parent (a connection's totalCount), one loader per collection, key path and filter. */
  countByReference(spec: CountSpec): CountLoader {
    const id = countSpecKey(spec);
    let loader = this.#counts.get(id);
    if (!loader) this.#counts.set(id, (loader = new CountLoader(this.#batcher(spec.collection), spec)));
    return loader;
  }

  /** The figures of an `@aggregate` field, one loader per field and request (the same for every parent of a level). */
  figures(aggregate: AggregateField, request: AggregateRequest): FiguresLoader {
    const id = `${aggregate.coordinate}|${request.signature}`;
    let loader = this.#figures.get(id);
    if (!loader) this.#figures.set(id, (loader = new FiguresLoader(aggregate, request, this.#batcher(aggregate.collection))));
    return loader;
  }

  #batcher(collection: string): AggregateBatcher {
    let batcher = this.#aggregates.get(collection);
    if (!batcher) this.#aggregates.set(collection, (batcher = new AggregateBatcher(this.funnel, this.request, collection)));
    return batcher;
  }
}
