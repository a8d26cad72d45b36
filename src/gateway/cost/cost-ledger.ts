import type { ReadStrategy } from '../storage-map/storage-map-types';

/** One MongoDB command as command monitoring saw it, attributed to the request and fields that caused it. */
export interface CommandRecord {
  readonly collection: string;
  readonly commandName: string;
  /** `Type.field` coordinates whose loads this command served (several when fields shared a batch). */
  readonly fields: readonly string[];
  readonly documents: number;
  readonly bytes: number;
  readonly durationMs: number;
  readonly ok: boolean;
}

export interface FieldCost {
  strategy: ReadStrategy;
  /** Commands this field's loads took part in (a batch shared by two fields counts for both). */
  roundTrips: number;
  /** Documents fetched from MongoDB for this field (0 when served embedded, from a snapshot or from cache). */
  documents: number;
  /** Keys (parent ids or references) this field asked for. */
  keys: number;
  snapshotHits?: number;
  snapshotMisses?: number;
  dangling?: number;
}

export interface CollectionCost {
  roundTrips: number;
  documents: number;
}

/** The `extensions.cost` payload. Issue 4 adds estimatedRoundTrips, naiveRoundTrips and the debug view. */
export interface CostReport {
  roundTrips: number;
  documents: number;
  bytes: number;
  durationMs: number;
  fields: Record<string, FieldCost>;
  collections: Record<string, CollectionCost>;
}

/**
 * Per-request cost accounting. The mongo funnel feeds it commands (from monitoring events); strategy
 * resolvers feed it per-field facts (keys, snapshot hits, dangling references). One ledger per request.
 */
export class CostLedger {
  readonly #commands: CommandRecord[] = [];
  readonly #fields = new Map<string, FieldCost>();

  recordCommand(command: CommandRecord): void {
    this.#commands.push(command);
    for (const coordinate of command.fields) {
      const field = this.#fields.get(coordinate);
      if (field) field.roundTrips += 1;
    }
  }

  /** Called when a relation field resolves; later calls for the same field accumulate into one entry. */
  field(coordinate: string, strategy: ReadStrategy): FieldCostRecorder {
    let entry = this.#fields.get(coordinate);
    if (!entry) {
      entry = { strategy, roundTrips: 0, documents: 0, keys: 0 };
      if (strategy === 'snapshot') Object.assign(entry, { snapshotHits: 0, snapshotMisses: 0 });
      this.#fields.set(coordinate, entry);
    }
    return new FieldCostRecorder(entry);
  }

  /** Every command so far, in order (the seam for issue 4's `x-docjoin-cost: commands` view). */
  get commands(): readonly CommandRecord[] {
    return this.#commands;
  }

  report(): CostReport {
    const collections: Record<string, CollectionCost> = {};
    let documents = 0;
    let bytes = 0;
    let durationMs = 0;
    for (const command of this.#commands) {
      documents += command.documents;
      bytes += command.bytes;
      durationMs += command.durationMs;
      const collection = (collections[command.collection] ??= { roundTrips: 0, documents: 0 });
      collection.roundTrips += 1;
      collection.documents += command.documents;
    }
    const fields: Record<string, FieldCost> = {};
    for (const [coordinate, entry] of [...this.#fields].sort(([a], [b]) => a.localeCompare(b))) fields[coordinate] = { ...entry };
    return { roundTrips: this.#commands.length, documents, bytes, durationMs: Math.round(durationMs * 1000) / 1000, fields, collections };
  }
}

/** Adds one field's facts to its ledger entry. */
export class FieldCostRecorder {
  constructor(readonly entry: FieldCost) {}

  keys(count: number): void {
    this.entry.keys += count;
  }

  documents(count: number): void {
    this.entry.documents += count;
  }

  snapshotHits(count: number): void {
    this.entry.snapshotHits = (this.entry.snapshotHits ?? 0) + count;
  }

  snapshotMisses(count: number): void {
    this.entry.snapshotMisses = (this.entry.snapshotMisses ?? 0) + count;
  }

  dangling(count: number): void {
    if (count > 0) this.entry.dangling = (this.entry.dangling ?? 0) + count;
  }
}
