import DataLoader from 'dataloader';
import type { CostLedger, FieldCostRecorder } from '../cost/cost-ledger';
import { keyString } from '../documents/key-string';
import { readPath } from '../documents/read-path';
import type { MongoFunnel, StoredDocument } from '../mongo/mongo-funnel';
import { covers, mergeProjections, projectionOf, toFindProjection, type Projection } from '../planning/projection';

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
 * A document cache, filled by batches and by `prime` (root list results): a cached document satisfies a
 * later load only if it was fetched with every path that load needs; a missing document satisfies any
 * load (it stays missing). A key whose find is still in flight waits for that find. Both are answered
 * inside the batch, not before it, so every load made in one tick resolves at one time — at once when
 * all were cached, else when the finds reply — which keeps the moments a field's results arrive at no
 * more than its parents' (estimate/README.md).
 */
export class DocumentLoader {
  readonly #documents = new Map<string, CachedDocument>();
  /** Keys a find has been sent for and not answered yet, with the paths it reads. */
  readonly #inFlight = new Map<string, { readonly projection: Projection; readonly found: Promise<Map<string, StoredDocument>> }>();
  readonly #loader: DataLoader<KeyLoad, StoredDocument | null, string>;

  constructor(
    private readonly funnel: MongoFunnel,
    private readonly ledger: CostLedger,
    readonly collection: string,
    readonly keyField: string,
  ) {
    // No promise cache: every load reaches #batch, which answers from the document cache or from a find
    // in flight, so that a tick's loads all resolve at one time.
    this.#loader = new DataLoader((loads) => this.#batch(loads), { cache: false });
  }

  load(load: KeyLoad): Promise<StoredDocument | null> {
    return this.#loader.load(load);
  }

  #cached(load: KeyLoad): CachedDocument | undefined {
    const cached = this.#documents.get(keyString(load.key));
    return cached && (cached.document === null || covers(cached.projection, load.projection)) ? cached : undefined;
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
    const cached = loads.map((load) => this.#cached(load));
    const waiting = loads.map((load, index) => (cached[index] ? undefined : this.#inFlightFor(load)));
    const missing = loads.filter((_load, index) => cached[index] === undefined && waiting[index] === undefined);
    const own = missing.length === 0 ? undefined : this.#fetch(missing);
    const [fetched, ...awaited] = await Promise.all([own, ...waiting]);
    // A document read for a field counts once for it, however many of its loads asked for it.
    const counted = new Set<string>();
    return loads.map((load, index) => {
      const answer = cached[index];
      if (answer) return answer.document;
      const key = keyString(load.key);
      const other = awaited[index];
      if (other) return other.get(key) ?? null;
      const document = fetched?.get(key) ?? null;
      if (document && !counted.has(`${load.field}|${key}`)) {
        counted.add(`${load.field}|${key}`);
        load.cost?.documents(1);
      }
      return document;
    });
  }

  /** A find already sent for this key, reading every path the load needs. */
  #inFlightFor(load: KeyLoad): Promise<Map<string, StoredDocument>> | undefined {
    const flight = this.#inFlight.get(keyString(load.key));
    return flight && covers(flight.projection, load.projection) ? flight.found : undefined;
  }

  /** ONE `{ key: { $in } }` find for the loads no cached document answers; remembers what it read. */
  async #fetch(loads: readonly KeyLoad[]): Promise<Map<string, StoredDocument>> {
    const keys = new Map<string, unknown>();
    for (const load of loads) keys.set(keyString(load.key), load.key);
    const projection = mergeProjections([...loads.map((load) => load.projection), projectionOf([[this.keyField, 1]])]);
    const fields = [...new Set(loads.map((load) => load.field))];
    const found = this.funnel
      .find({ ledger: this.ledger, fields }, this.collection, { [this.keyField]: { $in: [...keys.values()] } }, { projection: toFindProjection(projection), batchSize: keys.size })
      .then((documents) => {
        const byKey = new Map<string, StoredDocument>();
        for (const document of documents) {
          const key = keyString(readPath(document, this.keyField));
          if (!byKey.has(key)) byKey.set(key, document);
        }
        for (const key of keys.keys()) this.#remember(key, byKey.get(key) ?? null, projection);
        return byKey;
      })
      .finally(() => {
        for (const key of keys.keys()) if (this.#inFlight.get(key)?.found === found) this.#inFlight.delete(key);
      });
    for (const key of keys.keys()) this.#inFlight.set(key, { projection, found });
    return found;
  }
}
