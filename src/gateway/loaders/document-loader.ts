import DataLoader from 'dataloader';
import type { CostLedger, FieldCostRecorder } from '../cost/cost-ledger';
import { keyString } from '../documents/key-string';
import { readPath } from '../documents/read-path';
import type { MongoFunnel, StoredDocument } from '../mongo/mongo-funnel';
import { covers, mergeProjections, projectionOf, projectionSignature, toFindProjection, type Projection } from '../planning/projection';

/** One load: a key, the paths the caller needs, and who asked (for attribution). */
export interface KeyLoad {
  readonly key: unknown;
  readonly projection: Projection;
  /** `Type.field` that asked, or `Query.x` for root fields. */
  readonly field: string;
  readonly cost?: FieldCostRecorder;
}

interface CachedDocument {
  readonly document: StoredDocument | null;
  readonly projection: Projection;
}

/**
 * Loads documents of one collection by one key field (a forward join), batching every load made in the
 * same tick into ONE `{ key: { $in: [...] } }` find whose projection is the union of the loads' projections.
 *
 * Two caches: DataLoader's (same key + same projection + same field → same promise) and a document cache
 * filled by batches and by `prime` (root list results). A cached document satisfies a later load only if
 * it was fetched with every path that load needs; a missing document satisfies any load (it stays missing).
 */
export class DocumentLoader {
  readonly #documents = new Map<string, CachedDocument>();
  readonly #loader: DataLoader<KeyLoad, StoredDocument | null, string>;

  constructor(
    private readonly funnel: MongoFunnel,
    private readonly ledger: CostLedger,
    readonly collection: string,
    readonly keyField: string,
  ) {
    this.#loader = new DataLoader((loads) => this.#batch(loads), {
      cacheKeyFn: (load) => `${keyString(load.key)}|${projectionSignature(load.projection)}|${load.field}`,
    });
  }

  load(load: KeyLoad): Promise<StoredDocument | null> {
    const cached = this.#documents.get(keyString(load.key));
    if (cached && (cached.document === null || covers(cached.projection, load.projection))) return Promise.resolve(cached.document);
    return this.#loader.load(load);
  }

  /** Records a document fetched elsewhere (a root list) so later loads that it satisfies cost nothing. */
  prime(document: StoredDocument, projection: Projection): void {
    const key = readPath(document, this.keyField);
    if (key === undefined || key === null || Array.isArray(key)) return;
    this.#remember(keyString(key), document, projection);
  }

  #remember(key: string, document: StoredDocument | null, projection: Projection): void {
    const cached = this.#documents.get(key);
    // Keep whichever copy has more: a narrower later fetch must not hide a wider earlier one.
    if (cached && cached.document !== null && document !== null && covers(cached.projection, projection) && !covers(projection, cached.projection)) return;
    this.#documents.set(key, { document, projection });
  }

  async #batch(loads: readonly KeyLoad[]): Promise<Array<StoredDocument | null>> {
    const keys = new Map<string, unknown>();
    for (const load of loads) keys.set(keyString(load.key), load.key);
    const projection = mergeProjections([...loads.map((load) => load.projection), projectionOf([[this.keyField, 1]])]);
    const fields = [...new Set(loads.map((load) => load.field))];
    const documents = await this.funnel.find(
      { ledger: this.ledger, fields },
      this.collection,
      { [this.keyField]: { $in: [...keys.values()] } },
      { projection: toFindProjection(projection), batchSize: keys.size },
    );
    const byKey = new Map<string, StoredDocument>();
    for (const document of documents) {
      const key = keyString(readPath(document, this.keyField));
      if (!byKey.has(key)) byKey.set(key, document);
    }
    for (const key of keys.keys()) this.#remember(key, byKey.get(key) ?? null, projection);
    return loads.map((load) => {
      const document = byKey.get(keyString(load.key)) ?? null;
      if (document) load.cost?.documents(1);
      return document;
    });
  }
}
