/** The `extensions.cost` docjoin writes on a response (src/gateway/request/cost/cost-ledger.ts), as the IDE reads it. */

export interface FieldCost {
  readonly strategy: string;
  readonly roundTrips: number;
  readonly documents: number;
  readonly keys: number;
  readonly snapshotHits?: number;
  readonly snapshotMisses?: number;
  readonly dangling?: number;
}

/** One entry of the `x-docjoin-cost: commands` view. */
export interface CommandCost {
  readonly collection: string;
  readonly command: string;
  /** Keys and operators only, every value `"?"`. */
  readonly filter?: unknown;
  readonly fields: readonly string[];
  /** Absent for a write unit's command on a collection the viewer reads in part. */
  readonly documents?: number;
  readonly durationMs: number;
}

/** What a mutation's write units sent and changed. */
export interface WriteCost {
  readonly roundTrips: number;
  readonly documentsModified: number;
  /** Documents modified per collection written. */
  readonly fanOut: Readonly<Record<string, number>>;
  readonly atomic: boolean;
  readonly attempts: number;
}

export interface CostReport {
  readonly roundTrips: number;
  readonly estimatedRoundTrips: number;
  readonly estimatedDocuments: number;
  readonly naiveRoundTrips: number;
  readonly documents: number;
  readonly bytes: number;
  readonly durationMs: number;
  readonly fields: Readonly<Record<string, FieldCost>>;
  readonly collections: Readonly<Record<string, { readonly roundTrips: number; readonly documents: number }>>;
  /** Only with `x-docjoin-cost: commands`. */
  readonly commands?: readonly CommandCost[];
  /** Only for operations that ran a write unit (mutations). */
  readonly writes?: WriteCost;
}
