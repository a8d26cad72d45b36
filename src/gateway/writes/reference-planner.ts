import { keyString } from '../documents/key-string';
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
 * When a `typeName` document's key at `keyPath` (a by-key reference: `Comment.postId`) moves from what
 * `before` holds to `newKey`, the parents of the reverse joins keyed there follow: each `@counter` of
 * them goes down by one on the old parent and up on the new, each `@total` moves the document's value
 * (planTotalUpdate). `before` holds the key and every summed path (pathsBeforeMove).
 */
export function planKeyMove(model: WriteModel, typeName: string, keyPath: string, before: StoredDocument, newKey: unknown): PlannedUpdate[] {
  const oldKey = readPath(before, keyPath);
  const merger = new UpdateMerger();
  const copies: PlannedUpdate[] = [];
  const moved = isKey(oldKey) && isKey(newKey) && keyString(oldKey) === keyString(newKey);
  for (const counter of childCounters(model, typeName, keyPath)) {
    if (moved || counter.source.kind !== 'children') continue;
    for (const [key, delta] of [[oldKey, -1], [newKey, 1]] as const) {
      if (!isKey(key)) continue;
      merger.add(counter.collection, { path: counter.source.parentKey, value: key }, {}, '$inc', counter.path, delta, counter.source.parentKey !== '_id');
      copies.push(...planCounterCopyUpdates(model, counter, key, delta));
    }
  }
  addTotalMoves(merger, totalsMovedBy(model, typeName, [keyPath]), before, { [keyPath]: newKey });
  return [...merger.planned(), ...copies];
}

/** What a key move of a `typeName` document must read of it first: the key and the paths its totals sum. */
export function pathsBeforeMove(model: WriteModel, typeName: string, keyPath: string): string[] {
  return distinct([keyPath, ...pathsBeforeUpdate(totalsMovedBy(model, typeName, [keyPath]))]);
}

/** The collections planKeyMove may write, each once. */
export function collectionsOfKeyMove(model: WriteModel, typeName: string, keyPath: string): string[] {
  return distinct([
    ...childCounters(model, typeName, keyPath).flatMap((counter) => [counter.collection, ...counterCopies(model, counter).map(({ location }) => location.collection)]),
    ...totalCollections(totalsMovedBy(model, typeName, [keyPath])),
  ]);
}

/** The counters of children of `typeName`'s collection keyed at `keyPath`. */
function childCounters(model: WriteModel, typeName: string, keyPath: string): CounterRule[] {
  const collection = model.storageMap.types.get(typeName)?.collection;
  return model.counters.filter((counter) => counter.source.kind === 'children' && counter.source.childCollection === collection && counter.source.childKey === keyPath);
}

function isKey(value: unknown): boolean {
  return value !== undefined && value !== null;
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
