import type { Db, Document } from 'mongodb';
import type { WriteModel } from '../../gateway';
import { distributionOf } from './distribution';
import { arrayGrowth, childGrowth } from './growth';
import { IndexCatalog } from './index-catalog';
import { countPerKey, firstValuePerKey } from './per-key-queries';
import { planMeasurements, type ArrayPlan, type ReverseJoinPlan, type SnapshotPlan } from './plan-measurements';
import { sampleCollection, sampleSizeFor } from './sample-collection';
import { distinctValues, elements, pickAtRandom } from './sampled-keys';
import {
  DEFAULT_KEY_SAMPLE_SIZE,
  DEFAULT_SAMPLE_SIZE,
  NEAR_LIMIT_BYTES,
  type ArrayStatistics,
  type CollectionStatistics,
  type DataStatistics,
  type DataStatisticsOptions,
  type RelationStatistics,
  type ReverseJoinStatistics,
  type SnapshotFanIn,
  type StatisticsSettings,
} from './statistics-types';
import { timeMillis } from './time-field';
import { countCopiesOfWrittenSources } from './written-sources';

/**
 * Measures the data behind every relation of the write model: per collection, its size and document
 * sizes; per relation field, its array lengths and their growth, its reverse join's children per key and
 * their growth, and its snapshot's fan-in. Each collection is read through one `$sample`; keys are counted
 * by index-served queries only (a count no index serves is skipped, naming the index to create), so by
 * default no command scans a whole collection. `fullScan: true` reads every document instead and counts
 * without indexes. The commands sent are listed in README.md.
 */
export async function collectDataStatistics(db: Db, model: WriteModel, options: DataStatisticsOptions = {}): Promise<DataStatistics> {
  const settings = resolveSettings(options);
  const plan = planMeasurements(model, checkTimeFields(model, options.timeFields));
  const existing = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((collection) => collection.name));
  const indexes = new IndexCatalog(db);

  const samples = new Map<string, Document[]>();
  const collections: Record<string, CollectionStatistics> = {};
  for (const projection of plan.collections.values()) {
    const name = projection.collection;
    if (!existing.has(name)) {
      collections[name] = collectionStatistics(name, false, 0, [], settings.nearLimitBytes);
      continue;
    }
    const estimatedCount = await db.collection(name).estimatedDocumentCount();
    const rows = await sampleCollection(db, projection, { size: sampleSizeFor(estimatedCount, settings.sampleSize), fullScan: settings.fullScan });
    samples.set(name, rows);
    collections[name] = collectionStatistics(name, true, estimatedCount, rows, settings.nearLimitBytes);
  }

  const measureReverseJoin = memoize((join: ReverseJoinPlan) => reverseJoinStatistics(db, join, samples, indexes, settings));
  const relations: Record<string, RelationStatistics> = {};
  for (const relation of plan.relations) {
    const skipped = [...relation.skipped];
    const array = relation.array && arrayStatistics(relation.array, samples, skipped);
    let reverseJoin: ReverseJoinStatistics | undefined;
    if (relation.reverseJoin) {
      const measured = await measureReverseJoin(relation.reverseJoin);
      reverseJoin = measured.statistics;
      skipped.push(...measured.skipped);
    }
    const snapshots: SnapshotFanIn[] = [];
    for (const snapshot of relation.snapshots) {
      const fanIn = await snapshotFanIn(db, snapshot, samples, indexes, settings);
      if (typeof fanIn === 'string') skipped.push(fanIn);
      else snapshots.push(fanIn);
    }
    relations[relation.coordinate] = { coordinate: relation.coordinate, collection: relation.collection, array, reverseJoin, snapshots, skipped };
  }
  const writtenSources = options.workload ? await countCopiesOfWrittenSources(db, model.storageMap, options.workload, indexes, settings.fullScan) : {};
  return { settings, collections, relations, writtenSources };
}

function collectionStatistics(collection: string, exists: boolean, estimatedCount: number, rows: readonly Document[], nearLimitBytes: number): CollectionStatistics {
  const sizes = rows.map((row) => Number(row.bytes));
  const near = sizes.filter((size) => size >= nearLimitBytes).length;
  return {
    collection,
    exists,
    estimatedCount,
    sampled: rows.length,
    documentBytes: distributionOf(sizes),
    nearLimit: { thresholdBytes: nearLimitBytes, documents: near, share: rows.length === 0 ? 0 : near / rows.length },
  };
}

function arrayStatistics(plan: ArrayPlan, samples: ReadonlyMap<string, Document[]>, skipped: string[]): ArrayStatistics | undefined {
  const rows = samples.get(plan.collection);
  if (!rows) {
    skipped.push(`array lengths: ${missing(plan.collection)}`);
    return undefined;
  }
  const lengths = rows.map((row) => Number(row[plan.lengthField]));
  const time = plan.time;
  const points: Array<{ time: number; length: number }> = [];
  if (time) {
    rows.forEach((row, index) => {
      const at = timeMillis(row[time.field]);
      if (at !== undefined) points.push({ time: at, length: lengths[index]! });
    });
  }
  const growth = time && arrayGrowth(time.path, points);
  if (time && !growth) skipped.push(`array growth: fewer than two sampled ${plan.collection} documents hold different times at "${time.path}"`);
  return { path: plan.path, holds: plan.holds, limit: plan.limit, lengths: distributionOf(lengths), growth };
}

/**
 * The children's keys in the child sample; children per key counted for sampled parents' keys (parents
 * drawn from the parent sample, so a parent without children counts, and a parent with many is not
 * favoured as it would be if keys were drawn from the children).
 */
async function reverseJoinStatistics(
  db: Db,
  join: ReverseJoinPlan,
  samples: ReadonlyMap<string, Document[]>,
  indexes: IndexCatalog,
  settings: StatisticsSettings,
): Promise<{ statistics: ReverseJoinStatistics | undefined; skipped: string[] }> {
  const parents = samples.get(join.parentCollection);
  const children = samples.get(join.childCollection);
  if (!parents || !children) return { statistics: undefined, skipped: [`reverse join: ${missing(!parents ? join.parentCollection : join.childCollection)}`] };
  const skipped: string[] = [];
  const base = {
    childCollection: join.childCollection,
    foreignField: join.foreignField,
    localField: join.localField,
    sampledChildren: children.filter((row) => elements(row[join.childKeyField]).length > 0).length,
    distinctKeys: distinctValues(children, join.childKeyField).length,
  };
  if (!settings.fullScan && !(await indexes.servesEquality(join.childCollection, join.foreignField))) {
    skipped.push(`children per key: ${noIndex(join.childCollection, join.foreignField)}`);
    return { statistics: { ...base, childrenPerKey: undefined, growth: undefined }, skipped };
  }
  const keys = pickAtRandom(distinctValues(parents, join.parentKeyField), settings.keySampleSize);
  const counts = await countPerKey(db, join.childCollection, join.foreignField, keys);
  let growth: ReverseJoinStatistics['growth'];
  if (join.childTimePath !== undefined) {
    const growing = keys.flatMap((key, index) => (counts[index]! >= 2 ? [{ key, children: counts[index]! }] : []));
    const grown = growing.map((entry) => entry.key);
    const oldest = await firstValuePerKey(db, join.childCollection, join.foreignField, join.childTimePath, 1, grown);
    const newest = await firstValuePerKey(db, join.childCollection, join.foreignField, join.childTimePath, -1, grown);
    const timed = growing.flatMap((entry, index) => {
      const [from, to] = [timeMillis(oldest[index]), timeMillis(newest[index])];
      return from === undefined || to === undefined ? [] : [{ children: entry.children, oldest: from, newest: to }];
    });
    growth = childGrowth(join.childTimePath, timed);
    if (!growth) skipped.push(`children growth: no counted ${join.childCollection} key has children of different times at "${join.childTimePath}"`);
  }
  return { statistics: { ...base, childrenPerKey: distributionOf(counts), growth }, skipped };
}

/** Copies per sampled source, or why they were not counted. */
async function snapshotFanIn(db: Db, snapshot: SnapshotPlan, samples: ReadonlyMap<string, Document[]>, indexes: IndexCatalog, settings: StatisticsSettings): Promise<SnapshotFanIn | string> {
  const sources = samples.get(snapshot.sourceCollection);
  if (!sources || !samples.has(snapshot.collection)) return `snapshot fan-in of ${snapshot.coordinate}: ${missing(!sources ? snapshot.sourceCollection : snapshot.collection)}`;
  if (!settings.fullScan && !(await indexes.servesEquality(snapshot.collection, snapshot.keyPath))) {
    return `snapshot fan-in of ${snapshot.coordinate}: ${noIndex(snapshot.collection, snapshot.keyPath)}`;
  }
  const ids = pickAtRandom(distinctValues(sources, snapshot.sourceIdField), settings.keySampleSize);
  const counts = await countPerKey(db, snapshot.collection, snapshot.keyPath, ids);
  return {
    coordinate: snapshot.coordinate,
    collection: snapshot.collection,
    keyPath: snapshot.keyPath,
    sourceCollection: snapshot.sourceCollection,
    copiesPerSource: distributionOf(counts),
  };
}

function missing(collection: string): string {
  return `collection "${collection}" does not exist`;
}

function noIndex(collection: string, path: string): string {
  return `not counted, no index on ${collection}.${path} (create one with db.${collection}.createIndex({ "${path}": 1 }), or pass fullScan: true)`;
}

function memoize<K, V>(compute: (key: K) => V): (key: K) => V {
  const cache = new Map<K, V>();
  return (key) => {
    if (!cache.has(key)) cache.set(key, compute(key));
    return cache.get(key)!;
  };
}

function resolveSettings(options: DataStatisticsOptions): StatisticsSettings {
  const positiveInteger = (name: string, value: number | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    if (!Number.isSafeInteger(value) || value < 1) throw new RangeError(`collectDataStatistics: option ${name} must be a positive integer, got ${String(value)}`);
    return value;
  };
  const nearLimitBytes = options.nearLimitBytes ?? NEAR_LIMIT_BYTES;
  if (typeof nearLimitBytes !== 'number' || !(nearLimitBytes > 0)) throw new RangeError(`collectDataStatistics: option nearLimitBytes must be a positive number, got ${String(nearLimitBytes)}`);
  const fullScan = options.fullScan ?? false;
  if (typeof fullScan !== 'boolean') throw new TypeError(`collectDataStatistics: option fullScan must be a boolean, got ${String(fullScan)}`);
  return {
    sampleSize: positiveInteger('sampleSize', options.sampleSize, DEFAULT_SAMPLE_SIZE),
    keySampleSize: positiveInteger('keySampleSize', options.keySampleSize, DEFAULT_KEY_SAMPLE_SIZE),
    nearLimitBytes,
    fullScan,
  };
}

function checkTimeFields(model: WriteModel, timeFields: Readonly<Record<string, string>> | undefined): Readonly<Record<string, string>> {
  for (const [typeName, path] of Object.entries(timeFields ?? {})) {
    if (!model.storageMap.types.has(typeName)) throw new RangeError(`collectDataStatistics: option timeFields names "${typeName}", which is not a type of the schema`);
    if (typeof path !== 'string' || path === '') throw new RangeError(`collectDataStatistics: option timeFields.${typeName} must be a stored path, got ${String(path)}`);
  }
  return timeFields ?? {};
}
