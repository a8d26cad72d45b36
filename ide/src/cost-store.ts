/** The `extensions.cost` of the last response, for the cost panel (a tiny external store for React). */

export interface FieldCost {
  readonly strategy: string;
  readonly roundTrips: number;
  readonly documents: number;
  readonly keys: number;
  readonly snapshotHits?: number;
  readonly snapshotMisses?: number;
  readonly dangling?: number;
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
}

let latest: CostReport | undefined;
const listeners = new Set<() => void>();

export function publishCost(cost: CostReport | undefined): void {
  latest = cost;
  for (const listener of listeners) listener();
}

export function subscribeToCost(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function latestCost(): CostReport | undefined {
  return latest;
}
