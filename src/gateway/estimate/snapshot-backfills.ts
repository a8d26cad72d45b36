import type { StoredDocument } from '../mongo/mongo-funnel';
import type { StorageMap } from '../storage-map/storage-map-types';

/** Where `docjoin migrate` records its backfills, in the gateway's database. */
export const MIGRATIONS_COLLECTION = 'docjoin_migrations';
/** The kind of a migration that fills newly declared fields into a snapshot's existing copies. */
export const SNAPSHOT_BACKFILL = 'snapshot-backfill';
/** How often the backfills are read again while the gateway runs (one small find). */
export const BACKFILL_REFRESH_MS = 30_000;

/** What the backfills are read from (the mongo funnel). */
export interface MigrationSource {
  readMetadata(collection: string, filter: StoredDocument): Promise<StoredDocument[]>;
}

/**
 * Which snapshots are being backfilled, read at startup and then every BACKFILL_REFRESH_MS from
 * MIGRATIONS_COLLECTION: a document `{ _id: 'Type.field', kind: 'snapshot-backfill', fields, startedAt,
 * resumeAfter?, finishedAt? }` without `finishedAt` names one. Until it finishes, some copies may lack the
 * added fields; the resolver joins those, and the estimate counts that join. An absent collection, or a
 * document naming no snapshot of the schema, means none.
 */
export class SnapshotBackfills {
  readonly #snapshots: ReadonlySet<string>;
  #running: ReadonlySet<string> = new Set();
  #timer: NodeJS.Timeout | undefined;

  constructor(
    storageMap: StorageMap,
    private readonly source: MigrationSource,
  ) {
    this.#snapshots = new Set([...storageMap.relations.values()].flatMap((field) => (field.shapes.snapshot ? [field.coordinate] : [])));
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
    const migrations = await this.source.readMetadata(MIGRATIONS_COLLECTION, { kind: SNAPSHOT_BACKFILL });
    this.#running = new Set(
      migrations.flatMap((migration) => (typeof migration._id === 'string' && this.#snapshots.has(migration._id) && (migration.finishedAt === undefined || migration.finishedAt === null) ? [migration._id] : [])),
    );
  }

  /** Whether the snapshot of the relation `coordinate` was being backfilled when last read. */
  backfilling(coordinate: string): boolean {
    return this.#running.has(coordinate);
  }
}
