import type { Db } from 'mongodb';
import { embeddingPlaces, sampledId, type StorageMap, type WorkloadSummary } from '../../gateway';
import type { IndexCatalog } from './index-catalog';
import { countPerKey } from './per-key-queries';
import type { WrittenSourceCopies } from './statistics-types';

/**
 * For every forward by-key relation (`Order.customer`, `Review.product`, `OrderLine.product`) whose
 * target the recorded mutations changed: how many documents reference each sampled changed target,
 * wherever the relation's type is stored (its key at the copy's key for a snapshot, else at the join's
 * local field). Those are the copies a snapshot of the relation has to rewrite when that target
 * changes: what `docjoin advise` prices a new, wider or dropped snapshot with. Counted by index-served
 * queries only, unless `fullScan`.
 */
export async function countCopiesOfWrittenSources(
  db: Db,
  storageMap: StorageMap,
  workload: WorkloadSummary,
  indexes: IndexCatalog,
  fullScan: boolean,
): Promise<Record<string, WrittenSourceCopies>> {
  const sampled = sampledIdsByType(workload);
  const copies: Record<string, WrittenSourceCopies> = {};
  for (const field of storageMap.relations.values()) {
    const join = field.shapes.join;
    const keys = sampled.get(field.targetType);
    if (join?.direction !== 'byKey' || join.foreignField !== '_id' || !keys) continue;
    const snapshot = field.shapes.snapshot;
    const keyPath = snapshot ? `${snapshot.path}.${snapshot.key}` : join.localField;
    const holders: WrittenSourceCopies['holders'][number][] = [];
    const skipped: string[] = [];
    for (const place of embeddingPlaces(storageMap, field.typeName)) {
      const path = `${place.prefix}${keyPath}`;
      if (!fullScan && !(await indexes.servesEquality(place.collection, path))) {
        skipped.push(`no index on ${place.collection}.${path} (create one with db.${place.collection}.createIndex({ "${path}": 1 }), or pass fullScan: true)`);
        continue;
      }
      const counts = await countPerKey(db, place.collection, path, keys.map(sampledId));
      holders.push({ collection: place.collection, prefix: place.prefix, keyPath: path, copies: Object.fromEntries(keys.map((key, index) => [key, counts[index]!])) });
    }
    copies[field.coordinate] = { holders, skipped };
  }
  return copies;
}

/** The sampled ids of every type the recorded mutations changed, all mutations and field sets together. */
function sampledIdsByType(workload: WorkloadSummary): Map<string, string[]> {
  const byType = new Map<string, Set<string>>();
  for (const mutation of workload.mutations) {
    for (const set of mutation.changes) {
      let ids = byType.get(set.typeName);
      if (!ids) byType.set(set.typeName, (ids = new Set()));
      for (const source of set.sample) ids.add(source.id);
    }
  }
  return new Map([...byType].map(([typeName, ids]) => [typeName, [...ids].sort()]));
}
