import type { StoredDocument } from '../../documents/stored-document';
import type { StorageMap } from '../../startup/storage-map/storage-map-types';
import type { WriteModel } from '../../startup/write-model/write-model-types';

/** Where `docjoin migrate` records its backfills, in the gateway's database. */
export const MIGRATIONS_COLLECTION = 'docjoin_migrations';
/** The kind of a migration that fills newly declared fields into a snapshot's existing copies. */
export const SNAPSHOT_BACKFILL = 'snapshot-backfill';
/** The kind of a migration that fills a newly declared embedded copy of a reverse join (a bounded array). */
export const EMBEDDED_BACKFILL = 'embedded-backfill';
/** The kind of a migration that sets a newly declared `@counter`. */
export const COUNTER_BACKFILL = 'counter-backfill';
/** The kind of a migration that sets a newly declared `@total`. */
export const TOTAL_BACKFILL = 'total-backfill';
const BACKFILL_KINDS = [SNAPSHOT_BACKFILL, EMBEDDED_BACKFILL, COUNTER_BACKFILL, TOTAL_BACKFILL];
/** How often the backfills are read again while the gateway runs (one small find). */
export const BACKFILL_REFRESH_MS = 30_000;

/** What the backfills are read from (the mongo funnel). */
export interface MigrationSource {
  readMetadata(collection: string, filter: StoredDocument): Promise<StoredDocument[]>;
}

/**
 * Which copies are being backfilled, read at startup and then every BACKFILL_REFRESH_MS from
 * MIGRATIONS_COLLECTION: a document `{ _id: 'Type.field', kind, startedAt, resumeAfter?, finishedAt? }`
 * without `finishedAt` names one. `snapshot-backfill` (with the `fields` added): some copies may lack
 * them. `embedded-backfill`: some parents may have no embedded copy yet (a bounded array just declared),
 * or one a write started from nothing. `counter-backfill` and `total-backfill`: likewise for a `@counter`
 * or a `@total`. Until it finishes
 * the resolver joins (or counts) those, and the estimate counts that query. An absent collection, or a
 * document naming no such copy of the schema, means none.
 */
export class CopyBackfills {
  /** Each copy a marker may name, with the kind of marker that names it. */
  readonly #copies: ReadonlyMap<string, string>;
  #running: ReadonlySet<string> = new Set();
  readonly #incomplete = new Set<string>();
  #timer: NodeJS.Timeout | undefined;
  #version = 0;

  constructor(
    storageMap: StorageMap,
    rules: Pick<WriteModel, 'counters' | 'totals'>,
    private readonly source: MigrationSource,
  ) {
    this.#copies = new Map([
      ...[...storageMap.relations.values()].flatMap((field): Array<[string, string]> => [
        ...(field.shapes.snapshot ? [[field.coordinate, SNAPSHOT_BACKFILL] as [string, string]] : []),
        ...(field.shapes.embedded && field.shapes.join?.direction === 'byReference' ? [[field.coordinate, EMBEDDED_BACKFILL] as [string, string]] : []),
      ]),
      ...rules.counters.map((counter): [string, string] => [counter.coordinate, COUNTER_BACKFILL]),
      ...rules.totals.map((total): [string, string] => [total.coordinate, TOTAL_BACKFILL]),
    ]);
  }

  /** Reads the backfills now, then again in the background until `stop`. */
  async start(): Promise<void> {
    await this.refresh();
    this.#timer = setInterval(() => void this.refresh().catch(() => undefined), BACKFILL_REFRESH_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  async refresh(): Promise<void> {
    const migrations = await this.source.readMetadata(MIGRATIONS_COLLECTION, { kind: { $in: BACKFILL_KINDS } });
    const running = new Set(
      migrations.flatMap((migration) =>
        typeof migration._id === 'string' && this.#copies.get(migration._id) === migration.kind && (migration.finishedAt === undefined || migration.finishedAt === null) ? [migration._id] : [],
      ),
    );
    if (running.size === this.#running.size && [...running].every((coordinate) => this.#running.has(coordinate))) return;
    this.#running = running;
    this.#version++;
  }

  /** Changes whenever the running backfills do (estimate-cache.ts). */
  get version(): number {
    return this.#version;
  }

  /**
   * Copies the startup's sample found some documents lacking, with no marker to say so
   * (check-sampled-documents.ts): counted as backfilling until the process ends.
   */
  assumeIncomplete(coordinates: readonly string[]): void {
    for (const coordinate of coordinates) this.#incomplete.add(coordinate);
    this.#version++;
  }

  /** Whether the copy `coordinate` (a relation's snapshot or embedded copy, or a counter) was being backfilled when last read, or was found incomplete at startup. */
  backfilling(coordinate: string): boolean {
    return this.#running.has(coordinate) || this.#incomplete.has(coordinate);
  }
}
