import { keyString } from '../documents/key-string';
import { UpdateMerger, type PlannedUpdate } from './write-steps';
import type { WriteModel } from './write-model-types';

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
  for (const inverse of model.inverses) {
    if (inverse.of !== coordinate) continue;
    const counters = model.counters.filter((counter) => counter.source.kind === 'inverse' && counter.source.inverse.coordinate === inverse.coordinate);
    for (const key of removed) {
      const target = { path: '_id', value: key };
      merger.add(inverse.collection, target, { [inverse.path]: documentId }, '$pull', inverse.path, documentId, false);
      for (const counter of counters) merger.add(counter.collection, target, {}, '$inc', counter.path, -1, false);
    }
    for (const key of added) {
      const target = { path: '_id', value: key };
      merger.add(inverse.collection, target, { [inverse.path]: { $ne: documentId } }, '$push', inverse.path, { $each: [documentId], $sort: 1 }, false);
      for (const counter of counters) merger.add(counter.collection, target, {}, '$inc', counter.path, 1, false);
    }
  }
  return merger.planned();
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
