import type { Db, Document } from 'mongodb';
import { keyString } from '../gateway/documents/key-string';
import { readPath } from '../gateway/documents/read-path';
import type { SnapshotLocation } from '../gateway/writes/write-model-types';
import { cloneValue, sameValue } from './canonical-value';
import type { Repair } from './scan-batches';
import type { DriftReport } from './reconcile-types';

/**
 * A snapshot location: every copy's fields must equal its source's. A drifted document gets its whole
 * top-level value (`authors`, `recentLogs`) rewritten with the corrected copies, guarded by the value
 * that was checked, so a write that raced the scan is never overwritten.
 */
export function snapshotCheck(db: Db, location: SnapshotLocation) {
  const top = location.segments[0]!.path;
  return {
    projection: { _id: 1, [top]: 1 },
    async check(batch: Document[], report: DriftReport): Promise<Repair[]> {
      const copiesOf = (value: unknown) => collectCopies({ [top]: value }, location.segments);
      const ids = new Map<string, unknown>();
      for (const document of batch) {
        for (const copy of copiesOf(readPath(document, top))) {
          const id = copy[location.key];
          if (id !== undefined && id !== null) ids.set(keyString(id), id);
        }
      }
      const projection = Object.fromEntries([['_id', 1], ...location.fields.map((field) => [field.sourcePath, 1])]);
      const sources = new Map<string, Document>();
      if (ids.size > 0) {
        for (const source of await db.collection(location.sourceCollection).find({ _id: { $in: [...ids.values()] } } as Document, { projection }).toArray()) {
          sources.set(keyString(source._id), source);
        }
      }
      // Corrects the copies in place; returns whether any field differed.
      const correct = (copies: Record<string, unknown>[], countDangling: boolean): boolean => {
        let changed = false;
        for (const copy of copies) {
          if (countDangling) report.entries += 1;
          const source = sources.get(keyString(copy[location.key]));
          if (!source) {
            if (countDangling) report.dangling += 1;
            continue;
          }
          for (const field of location.fields) {
            const expected = readPath(source, field.sourcePath);
            if (!sameValue(copy[field.name], expected)) {
              copy[field.name] = expected;
              changed = true;
            }
          }
        }
        return changed;
      };
      const repairs: Repair[] = [];
      for (const document of batch) {
        const original = readPath(document, top);
        // Check on a throwaway view first; clone only the (rare) drifted values.
        if (!correct(copiesOf(original).map((copy) => ({ ...copy })), true)) continue;
        const value = cloneValue(original);
        correct(copiesOf(value), false);
        repairs.push({ id: document._id, filter: { _id: document._id, [top]: original ?? null }, update: { $set: { [top]: value } } });
      }
      return repairs;
    },
  };
}

/** The copy objects at the end of `segments` (mutable references into `container`). */
function collectCopies(container: Record<string, unknown>, segments: SnapshotLocation['segments']): Record<string, unknown>[] {
  const [segment, ...rest] = segments;
  if (!segment) return isObject(container) ? [container] : [];
  const value = segment.path.split('.').reduce<unknown>((current, part) => (isObject(current) ? current[part] : undefined), container);
  const items = Array.isArray(value) ? value : [value];
  return items.filter(isObject).flatMap((item) => collectCopies(item, rest));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
