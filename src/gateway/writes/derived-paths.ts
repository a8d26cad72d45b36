import { isAtOrUnder, pathsOverlap } from '../documents/read-path';
import { copyPathOf } from '../startup/write-model/build-write-model';
import type { WriteModel } from '../startup/write-model/write-model-types';
import { oncePerModel } from './once-per-model';

/** A stored path of a document that other stored values are derived from, and the rule deriving them. */
interface DerivedFromPath {
  readonly path: string;
  readonly rule: string;
}

/**
 * The stored paths of `typeName` documents other values are derived from: what a total sums and its
 * key, a counter's key, a bounded array's key and sort, an inverse's truth, a snapshot's copied fields.
 * The planners move those when an update sets that very path, but for an inverse's truth, which an
 * update may not set (write-plan.ts mirroredReferenceSet: changeReference moves it).
 */
function derivedFromPaths(model: WriteModel, typeName: string): DerivedFromPath[] {
  const collection = model.storageMap.types.get(typeName)?.collection;
  if (collection === undefined) return [];
  return [
    ...model.totals.filter((total) => total.childCollection === collection).flatMap((total) => [total.summedPath, total.childKey].map((path) => ({ path, rule: total.coordinate }))),
    ...model.counters.flatMap((counter) => (counter.source.kind === 'children' && counter.source.childCollection === collection ? [{ path: counter.source.childKey, rule: counter.coordinate }] : [])),
    ...model.boundedArrays.filter((array) => array.childCollection === collection).flatMap((array) => [array.childKey, ...array.sort.map((key) => key.path)].map((path) => ({ path, rule: array.coordinate }))),
    ...model.inverses.filter((inverse) => inverse.truthCollection === collection).map((inverse) => ({ path: inverse.truthPath, rule: inverse.coordinate })),
    ...model.snapshots.filter((location) => location.sourceCollection === collection).flatMap((location) => location.fields.map((field) => ({ path: field.sourcePath, rule: location.coordinate }))),
  ];
}

/**
 * The stored paths of `typeName` documents that key values the writes derive by another field than
 * `_id` (`code`, when Account.entryCount counts the entries whose accountCode equals it): no planner
 * recounts them when it changes.
 */
function parentKeyPaths(model: WriteModel, typeName: string): DerivedFromPath[] {
  const collection = model.storageMap.types.get(typeName)?.collection;
  if (collection === undefined) return [];
  return [
    ...model.counters.flatMap((counter) => (counter.source.kind === 'children' ? [{ rule: counter.coordinate, collection: counter.collection, path: counter.source.parentKey }] : [])),
    ...[...model.totals, ...model.boundedArrays].map((rule) => ({ rule: rule.coordinate, collection: rule.collection, path: rule.parentKey })),
  ]
    .filter((keyed) => keyed.collection === collection && keyed.path !== '_id')
    .map(({ path, rule }) => ({ path, rule }));
}

/** The rule whose derived values `typeName` documents find their children by a key at or inside `path`. */
export function derivedValuesKeyedAt(model: WriteModel, typeName: string, path: string): DerivedFromPath | undefined {
  return parentKeyPaths(model, typeName).find((keyed) => isAtOrUnder(keyed.path, path));
}

/**
 * Where `typeName` documents hold values the writes derive (a total, a counter, a bounded array, an
 * inverse list, a snapshot's copies), each with its rule: only the planners write there.
 */
function derivedAtPaths(model: WriteModel, typeName: string): DerivedFromPath[] {
  const collection = model.storageMap.types.get(typeName)?.collection;
  if (collection === undefined) return [];
  return [
    ...[...model.totals, ...model.counters, ...model.boundedArrays, ...model.inverses].filter((rule) => rule.collection === collection).map((rule) => ({ path: rule.path, rule: rule.coordinate })),
    ...model.snapshots.filter((location) => location.collection === collection).map((location) => ({ path: copyPathOf(location), rule: location.coordinate })),
  ];
}

/** The value the writes derive that `path` of a `typeName` document is, or lies inside: only they set it. */
export function derivedValueHolding(model: WriteModel, typeName: string, path: string): DerivedFromPath | undefined {
  return derivedAtPaths(model, typeName).find((at) => isAtOrUnder(path, at.path));
}

/**
 * Why an update may not set `path` of a `typeName` document: it holds a path other values are derived
 * from (`meta`, a JSON field holding `meta.weight`, which a total sums), and setting it whole would
 * change that value without moving them; it lies inside one (`address.city`, when a snapshot copies
 * `address`), and setting it would change that value without moving what is derived from it; or it is, holds or lies inside a value the writes derive
 * (`stats` holding the total at `stats.weight`), which the client would overwrite. undefined when it may.
 */
export function wholeSetProblem(model: WriteModel, typeName: string, fieldName: string, path: string): string | undefined {
  return wholeSetProblemOnce(model, { typeName, fieldName, path });
}

const wholeSetProblemOnce = oncePerModel(
  ({ typeName, fieldName, path }: { typeName: string; fieldName: string; path: string }) => `${typeName}\u0000${fieldName}\u0000${path}`,
  (model, { typeName, fieldName, path }) => findWholeSetProblem(model, typeName, fieldName, path),
);

function findWholeSetProblem(model: WriteModel, typeName: string, fieldName: string, path: string): string | undefined {
  const inside = derivedFromPaths(model, typeName).find((derived) => derived.path !== path && isAtOrUnder(derived.path, path));
  if (inside) {
    return `${typeName}.${fieldName} is stored at ${path}, which holds ${inside.path} that ${inside.rule} is derived from, and an update setting ${path} whole would leave ${inside.rule} wrong; update the field stored at ${inside.path} itself, and leave ${typeName}.${fieldName} out of the update`;
  }
  const around = derivedFromPaths(model, typeName).find((derived) => derived.path !== path && isAtOrUnder(path, derived.path));
  if (around) {
    return `${typeName}.${fieldName} is stored at ${path}, inside ${around.path} that ${around.rule} is derived from, and an update setting ${path} would leave ${around.rule} as it was; update the field stored at ${around.path} whole, and leave ${typeName}.${fieldName} out of the update`;
  }
  const key = derivedValuesKeyedAt(model, typeName, path);
  if (key) {
    return `${typeName}.${fieldName} is stored at ${path}, ${key.path === path ? '' : `which holds ${key.path}, `}the key ${key.rule} finds its children by, and an update setting it would leave ${key.rule} as it was for the old key; leave ${typeName}.${fieldName} out of the update`;
  }
  const derived = derivedAtPaths(model, typeName).find((at) => pathsOverlap(at.path, path));
  if (!derived) return undefined;
  return `${typeName}.${fieldName} is stored at ${path}, ${derived.path === path ? 'where' : isAtOrUnder(derived.path, path) ? `which holds ${derived.path}, where` : `inside ${derived.path}, where`} the writes keep ${derived.rule}, and an update setting it would overwrite ${derived.rule}; leave ${typeName}.${fieldName} out of the update`;
}
