import type { FieldStep, SelectionStep } from '../plan/selection-tree';
import type { ReadStrategy, RelationField } from '../../startup/storage-map/storage-map-types';

/**
 * What the estimate (estimate-operation.ts) works out for one scope of the plan's tree before it adds
 * anything up: how each of its steps is read, and the batches those reads open. The what-ifs
 * (what-ifs.ts) compare two sets of them.
 */

/** Round trips or documents past counting: an alias bomb must not overflow into nonsense. */
export const SATURATED = Number.MAX_SAFE_INTEGER;

/** The strategy a relation is read with (the request's, or a what-if's). */
export type StrategyChoice = (field: RelationField) => ReadStrategy;

/** Objects at one level of the result (they appear together): their selection on each type they can be, and how many. */
export interface Scope {
  readonly selections: readonly SelectionStep[];
  readonly objects: number;
  /**
   * How the objects were read, which decides whether their `lookup` fields came with them:
   * `read`, by docjoin with the projection of `selections` (its `$lookup`s included); `resolver`, by a
   * hand-written resolver (with them when it reads through context.documents); undefined, not read as
   * documents of their own (copies, values), so their lookup fields are joined.
   */
  readonly parents?: 'read' | 'resolver';
  /**
   * The objects are the elements of an embedded array (or object) in documents read as `parents` says:
   * they carry the lookups of their joins by key (plan-projection.ts elementLookups) and join the rest.
   */
  readonly elements?: boolean;
}

/** One field whose values come from a query (a join, or a snapshot that misses). */
export interface QueryMember {
  readonly step: FieldStep;
  /** Documents it can fetch = objects at the next level. */
  readonly objects: number;
  /** The selections on those objects: one, or for a connection one per `edges { node }` / `nodes` response key (each on every type the objects can be). */
  readonly childSelections: readonly (readonly SelectionStep[])[];
  /** Objects at the next level when they are not the documents fetched (an aggregate: one value per parent from the documents it scans). */
  readonly childObjects?: number;
  /** Documents it returns beyond `objects`, whatever the collection holds (an aggregate's further parts: one document per parent each). */
  readonly moreDocuments?: number;
}

/** A loader's batch, as its first member opens it. */
export interface BatchSpec {
  /** The loader's key: the batch. */
  readonly batch: string;
  /** The command the batch sends (StepFigures.read). */
  readonly read: string;
  /** The collection read, whose size bounds the documents of a batch; undefined for a count. */
  readonly collection: string | undefined;
  /** A join by key: the members' keys go into one `$in`, so the batch returns each document once. */
  readonly byKey: boolean;
  /** Extra getMores per batch (only a reverse join without a per-parent limit can overflow its reply). */
  readonly getMoresPerBatch: number;
  /** A page `after` an item: the `_id` loader of the collection first reads that anchor. */
  readonly readsAnchor: boolean;
}

/** Members under one parent scope that use one loader: they load in the same moment, so share its batch. */
export interface QueryGroup extends BatchSpec {
  readonly members: QueryMember[];
  /** Each member's own read (the batch's `read` is its first member's): a page and a count share one command. */
  readonly reads: string[];
}

/** The figures a step read without a command adds: none, and how it is read. */
export interface FreeFigures {
  readonly read: string;
  readonly batch: undefined;
  readonly sharesWith: undefined;
  readonly roundTrips: 0;
  /** None, but for a lookup: the documents its `$lookup` brings inside the parents' replies. */
  readonly documents: number;
}

/** How one response key is read in its scope: with no command (and its children in a scope of their own), or in a batch. */
export type StepRead =
  | { readonly kind: 'free'; readonly step: FieldStep; readonly figures: FreeFigures; readonly children: Scope }
  | { readonly kind: 'batched'; readonly batch: BatchSpec; readonly member: QueryMember };

/** What one batch sends: its command, its getMores, and a keyset page's anchor first. */
export function roundTripsOf(batch: BatchSpec): number {
  return 1 + batch.getMoresPerBatch + (batch.readsAnchor ? 1 : 0);
}

/** Adds a batched read to the group of its loader, which its first member opens. */
export function joinBatch(groups: Map<string, QueryGroup>, { batch, member }: Extract<StepRead, { kind: 'batched' }>): void {
  let group = groups.get(batch.batch);
  if (!group) groups.set(batch.batch, (group = { ...batch, members: [], reads: [] }));
  group.members.push(member);
  group.reads.push(batch.read);
}

/** The round trips of the batches a scope's reads open. */
export function batchRoundTrips(reads: Iterable<readonly StepRead[]>): number {
  const groups = new Map<string, QueryGroup>();
  for (const stepReads of reads) {
    for (const read of stepReads) if (read.kind === 'batched') joinBatch(groups, read);
  }
  let roundTrips = 0;
  for (const group of groups.values()) roundTrips = add(roundTrips, roundTripsOf(group));
  return roundTrips;
}

/** The scopes a member's documents open below it: one per selection of them (documents read with its projection, unless they are values computed from them). */
export function memberScopes(member: QueryMember): Scope[] {
  return member.childSelections.map((selections) => (member.childObjects === undefined ? { selections, objects: member.objects, parents: 'read' } : { selections, objects: member.childObjects }));
}

/** The scopes a step's reads open below it. */
export function childScopes(reads: readonly StepRead[]): Scope[] {
  return reads.flatMap((read) => (read.kind === 'free' ? [read.children] : memberScopes(read.member)));
}

export function sameScopes(a: readonly Scope[], b: readonly Scope[]): boolean {
  return a.length === b.length && a.every((scope, index) => scope.selections === b[index]!.selections && scope.objects === b[index]!.objects && scope.parents === b[index]!.parents && scope.elements === b[index]!.elements);
}

/** Saturating sum; a saturated term (past counting) saturates it, whatever the sign of the other. */
export function add(a: number, b: number): number {
  if (a >= SATURATED || b >= SATURATED) return SATURATED;
  return Math.min(SATURATED, a + b);
}

/** What `after` adds to `before` (negative: saves); SATURATED when either is past counting. */
export function difference(after: number, before: number): number {
  return after >= SATURATED || before >= SATURATED ? SATURATED : after - before;
}

export function mul(a: number, b: number): number {
  return Math.min(SATURATED, a * b);
}
