import { keyString } from '../documents/key-string';
import { planCounterCopyUpdates } from './fan-out-planner';
import { counterCopies } from '../startup/write-model/build-write-model';
import { distinct, UpdateMerger, type PlannedUpdate } from './write-steps';
import type { CounterRule, InverseRule, WriteModel } from '../startup/write-model/write-model-types';

/**
 * Two-way references: when the truth side `coordinate` (e.g. `Task.owner`) of `documentId` stops
 * pointing at `oldKeys` and points at `newKeys`, every `@inverse(of: coordinate)` array follows
 * (`$pull` from the old parents, a sorted `$push` onto the new ones) and so does every `@counter`
 * counting that inverse. Each statement is guarded so running it twice changes nothing more.
 */
export function planReferenceChange(model: WriteModel, coordinate: string, documentId: unknown, oldKeys: readonly unknown[], newKeys: readonly unknown[]): PlannedUpdate[] {
  const removed = difference(oldKeys, newKeys);
  const added = difference(newKeys, oldKeys);
  const merger = new UpdateMerger();
  const copies: PlannedUpdate[] = [];
  const count = (counter: CounterRule, target: { path: string; value: unknown }, delta: number) => {
    merger.add(counter.collection, target, {}, '$inc', counter.path, delta, false);
    copies.push(...planCounterCopyUpdates(model, counter, target.value, delta));
  };
  for (const { inverse, counters } of referenceRules(model, coordinate)) {
    for (const key of removed) {
      const target = { path: '_id', value: key };
      merger.add(inverse.collection, target, { [inverse.path]: documentId }, '$pull', inverse.path, documentId, false);
      for (const counter of counters) count(counter, target, -1);
    }
    for (const key of added) {
      const target = { path: '_id', value: key };
      merger.add(inverse.collection, target, { [inverse.path]: { $ne: documentId } }, '$push', inverse.path, { $each: [documentId], $sort: 1 }, false);
      for (const counter of counters) count(counter, target, 1);
    }
  }
  return [...merger.planned(), ...copies];
}

/**
 * The collections planReferenceChange may write for `coordinate`, each once (the unit sends one update
 * command per collection): every inverse array of it and every counter of those.
 */
export function collectionsOfReferenceChange(model: WriteModel, coordinate: string): string[] {
  return distinct(
    referenceRules(model, coordinate).flatMap(({ inverse, counters }) => [
      inverse.collection,
      ...counters.flatMap((counter) => [counter.collection, ...counterCopies(model, counter).map(({ location }) => location.collection)]),
    ]),
  );
}

/** The inverse sides of `coordinate`, each with the counters counting it. */
function referenceRules(model: WriteModel, coordinate: string): Array<{ inverse: InverseRule; counters: CounterRule[] }> {
  return model.inverses
    .filter((inverse) => inverse.of === coordinate)
    .map((inverse) => ({ inverse, counters: model.counters.filter((counter) => counter.source.kind === 'inverse' && counter.source.inverse.coordinate === inverse.coordinate) }));
}

function difference(keys: readonly unknown[], minus: readonly unknown[]): unknown[] {
  const excluded = new Set(minus.map(keyString));
  const seen = new Set<string>();
  return keys.filter((key) => {
    const id = keyString(key);
    if (excluded.has(id) || seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
