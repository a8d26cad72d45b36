import { isKeyValue, keyString } from '../documents/key-string';
import { readPath } from '../documents/read-path';
import type { StoredDocument } from '../documents/stored-document';
import { addTotalMoves, pathsBeforeUpdate, totalCollections, totalsMovedBy } from './total-planner';
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

/**
 * When an update sets `$set` (stored paths) on a `typeName` document that was `before` it, the parents
 * whose counters and totals count it follow: a counter of a reverse join keyed at a path it sets (the
 * document re-pointed, `Comment.postId`) goes down by one on the old parent and up on the new, and each
 * total of it moves by the difference (planTotalUpdate). `before` holds what pathsBeforeMoves names.
 */
export function planChildMoves(model: WriteModel, typeName: string, before: StoredDocument, $set: StoredDocument): PlannedUpdate[] {
  const paths = Object.keys($set);
  const merger = new UpdateMerger();
  const copies: PlannedUpdate[] = [];
  for (const counter of childCounters(model, typeName, paths)) {
    if (counter.source.kind !== 'children') continue;
    const oldKey = readPath(before, counter.source.childKey);
    const newKey = $set[counter.source.childKey];
    if (isKeyValue(oldKey) && isKeyValue(newKey) && keyString(oldKey) === keyString(newKey)) continue;
    for (const [key, delta] of [[oldKey, -1], [newKey, 1]] as const) {
      if (!isKeyValue(key)) continue;
      merger.add(counter.collection, { path: counter.source.parentKey, value: key }, {}, '$inc', counter.path, delta, counter.source.parentKey !== '_id');
      copies.push(...planCounterCopyUpdates(model, counter, key, delta));
    }
  }
  addTotalMoves(merger, totalsMovedBy(model, typeName, paths), before, $set);
  return [...merger.planned(), ...copies];
}

/** What planChildMoves needs of the document before an update setting `paths`: the keys it re-points and the paths its totals sum. */
export function pathsBeforeMoves(model: WriteModel, typeName: string, paths: readonly string[]): string[] {
  return distinct([...childCounters(model, typeName, paths).flatMap((counter) => (counter.source.kind === 'children' ? [counter.source.childKey] : [])), ...pathsBeforeUpdate(totalsMovedBy(model, typeName, paths))]);
}

/** The collections planChildMoves may write for an update setting `paths`, each once (none: nothing moves). */
export function collectionsOfMoves(model: WriteModel, typeName: string, paths: readonly string[]): string[] {
  return distinct([
    ...childCounters(model, typeName, paths).flatMap((counter) => [counter.collection, ...counterCopies(model, counter).map(({ location }) => location.collection)]),
    ...totalCollections(totalsMovedBy(model, typeName, paths)),
  ]);
}

/** The counters of the reverse joins whose children are `typeName` documents keyed at one of `paths`. */
function childCounters(model: WriteModel, typeName: string, paths: readonly string[]): CounterRule[] {
  const collection = model.storageMap.types.get(typeName)?.collection;
  return model.counters.filter((counter) => counter.source.kind === 'children' && counter.source.childCollection === collection && paths.includes(counter.source.childKey));
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
