import type { FieldStep, SelectionStep } from '../plan/selection-tree';
import { declaredStrategies, readsByLookup, type ReadStrategy, type RelationField } from '../../startup/storage-map/storage-map-types';
import { add, batchRoundTrips, childScopes, difference, sameScopes, type Scope, type StepRead, type StrategyChoice } from './scope-reads';

/** What the what-ifs ask of the estimate's pass. */
export interface WhatIfReader {
  /** The strategy this request reads each relation with. */
  readonly strategyFor: StrategyChoice;
  /** The relation field a step reads by a strategy (none for a connection: it has only its join). */
  relationOf(step: FieldStep): RelationField | undefined;
  /** How the pass reads `step` in `scope` with `strategyFor`, without adding anything up. */
  reads(scope: Scope, step: FieldStep, strategyFor: StrategyChoice): readonly StepRead[];
  /** The round trips `scopes` send read with `strategyFor`, estimated on their own (SATURATED past the visit budget). */
  sideRoundTrips(scopes: readonly Scope[], strategyFor: StrategyChoice): number;
}

/**
 * Each relation field's what-ifs, tallied in the estimate's one pass (`docjoin explain` prints them): for
 * every other strategy the field declares, the round trips the operation gains (or, negative, saves)
 * with the field read that way everywhere. They add up per scope:
 * - the batches the scope sends: the field may open one, or join or leave one a sibling keeps;
 * - where the other way reads another number of children per parent, what the levels below send (a
 *   reverse join without a limit needs getMores past 10,000 children): a side pass estimates the
 *   subtree both ways, with the field switched inside it too, so its what-if is settled for that
 *   subtree and the pass does not tally it again below.
 * The sum equals the estimate made again with the field switched (test/unit/cli/explain/what-ifs.test.ts)
 * as long as neither saturates; a saturated term saturates the what-if.
 */
export class WhatIfTally {
  readonly #byCoordinate = new Map<string, Map<ReadStrategy, number>>();
  readonly #byStep = new Map<FieldStep, Map<ReadStrategy, number>>();
  /** What-ifs (by settledKey) a side pass counted for a whole subtree the pass is inside. */
  readonly #settled = new Map<string, number>();

  constructor(private readonly reader: WhatIfReader) {}

  /** Per coordinate and strategy, the round trips the operation gains or saves. */
  get byCoordinate(): ReadonlyMap<string, ReadonlyMap<ReadStrategy, number>> {
    return this.#byCoordinate;
  }

  /** The same, per step: on the first step of a field in each scope that is read at all (explain --plan prints them). */
  get byStep(): ReadonlyMap<FieldStep, ReadonlyMap<ReadStrategy, number>> {
    return this.#byStep;
  }

  /**
   * Tallies the what-ifs of the scope's relation fields, given how the pass reads each step. Returns,
   * per step, the what-ifs settled for its subtree: visit its children inside `whileSettled`.
   */
  tallyScope(scope: Scope, readsByStep: ReadonlyMap<FieldStep, readonly StepRead[]>): ReadonlyMap<FieldStep, readonly string[]> {
    const settledBelow = new Map<FieldStep, string[]>();
    const stepsByField = new Map<string, { field: RelationField; steps: FieldStep[] }>();
    for (const step of readsByStep.keys()) {
      const field = this.reader.relationOf(step);
      if (!field || declaredStrategies(field).length < 2) continue;
      const entry = stepsByField.get(field.coordinate);
      if (entry) entry.steps.push(step);
      else stepsByField.set(field.coordinate, { field, steps: [step] });
    }
    const lookedUpBelow = this.#lookupFieldsBelow(readsByStep);
    if (stepsByField.size === 0 && lookedUpBelow.size === 0) return settledBelow;
    const sent = batchRoundTrips(readsByStep.values());
    this.#tallyBatchesOfParents(scope, readsByStep, lookedUpBelow, sent);
    for (const { field, steps } of stepsByField.values()) {
      const current = this.reader.strategyFor(field);
      for (const strategy of declaredStrategies(field)) {
        const key = settledKey(field.coordinate, strategy);
        if (strategy === current || this.#settled.get(key)) continue;
        const strategyFor: StrategyChoice = (other) => (other.coordinate === field.coordinate ? strategy : this.reader.strategyFor(other));
        const switched = new Map(readsByStep);
        for (const step of steps) switched.set(step, this.reader.reads(scope, step, strategyFor));
        let roundTrips = difference(batchRoundTrips(switched.values()), sent);
        const before = steps.flatMap((step) => childScopes(readsByStep.get(step)!));
        const after = steps.flatMap((step) => childScopes(switched.get(step)!));
        if (!sameScopes(before, after)) {
          roundTrips = add(roundTrips, difference(this.reader.sideRoundTrips(after, strategyFor), this.reader.sideRoundTrips(before, this.reader.strategyFor)));
          for (const step of steps) settledBelow.set(step, [...(settledBelow.get(step) ?? []), key]);
        }
        const shownOn = steps.find((step) => readsByStep.get(step)!.length > 0) ?? steps[0]!;
        addTo(this.#byStep, shownOn, strategy, roundTrips);
        addTo(this.#byCoordinate, field.coordinate, strategy, roundTrips);
      }
    }
    return settledBelow;
  }

  /**
   * The relation fields under this scope's joins by key that can be read by lookup: whether each is
   * looked up decides which reads of its parents' loader make lookups, which the loader sends apart
   * (document-loader.ts), so switching it changes this scope's batches.
   */
  #lookupFieldsBelow(readsByStep: ReadonlyMap<FieldStep, readonly StepRead[]>): Map<string, RelationField> {
    const fields = new Map<string, RelationField>();
    for (const reads of readsByStep.values()) {
      for (const read of reads) {
        if (read.kind !== 'batched' || !read.batch.byKey) continue;
        for (const selections of read.member.childSelections) this.#addLookupFields(selections, fields, true);
      }
    }
    return fields;
  }

  /** The fields of `selections` that can be read by lookup, and (`throughEmbedded`) those of their embedded fields' elements. */
  #addLookupFields(selections: readonly SelectionStep[], fields: Map<string, RelationField>, throughEmbedded: boolean): void {
    for (const selection of selections) {
      for (const child of selection.fields) {
        const field = this.reader.relationOf(child);
        if (!field) continue;
        if (readsByLookup(field) && declaredStrategies(field).length > 1) fields.set(field.coordinate, field);
        if (throughEmbedded && field.shapes.embedded) this.#addLookupFields(child.children, fields, false);
      }
    }
  }

  /** What switching to or from lookup a field below this scope's joins by key does to this scope's batches. */
  #tallyBatchesOfParents(scope: Scope, readsByStep: ReadonlyMap<FieldStep, readonly StepRead[]>, fields: ReadonlyMap<string, RelationField>, sent: number): void {
    for (const field of fields.values()) {
      const current = this.reader.strategyFor(field);
      for (const strategy of declaredStrategies(field)) {
        if (strategy === current || (strategy !== 'lookup' && current !== 'lookup') || this.#settled.get(settledKey(field.coordinate, strategy))) continue;
        const strategyFor: StrategyChoice = (other) => (other.coordinate === field.coordinate ? strategy : this.reader.strategyFor(other));
        const switched = new Map<FieldStep, readonly StepRead[]>();
        // The field's own reads in this scope are tallied with the field (tallyScope): only its parents' batches here.
        for (const [step, reads] of readsByStep) switched.set(step, this.reader.relationOf(step)?.coordinate === field.coordinate ? reads : this.reader.reads(scope, step, strategyFor));
        const roundTrips = difference(batchRoundTrips(switched.values()), sent);
        if (roundTrips !== 0) addTo(this.#byCoordinate, field.coordinate, strategy, roundTrips);
      }
    }
  }

  /** Runs `visit` with `keys` settled: what-ifs the pass must not tally again inside it. */
  whileSettled(keys: readonly string[], visit: () => void): void {
    for (const key of keys) this.#settled.set(key, (this.#settled.get(key) ?? 0) + 1);
    try {
      visit();
    } finally {
      for (const key of keys) this.#settled.set(key, this.#settled.get(key)! - 1);
    }
  }
}

function settledKey(coordinate: string, strategy: ReadStrategy): string {
  return `${coordinate} ${strategy}`;
}

function addTo<K>(tally: Map<K, Map<ReadStrategy, number>>, key: K, strategy: ReadStrategy, roundTrips: number): void {
  const entry = tally.get(key) ?? new Map<ReadStrategy, number>();
  entry.set(strategy, add(entry.get(strategy) ?? 0, roundTrips));
  tally.set(key, entry);
}
