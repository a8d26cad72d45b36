import { badUserInput } from '../errors/public-error-code';
import { ownValue, readPath } from '../documents/read-path';
import { isPlainObject, type StoredDocument } from '../documents/stored-document';
import { copyPathOf } from '../startup/write-model/build-write-model';
import { oncePerModel } from './once-per-model';
import type { BoundedArray, CounterRule, TotalRule, WriteModel } from '../startup/write-model/write-model-types';
import { sumAsTotalValue, zeroTotal } from './total-planner';

/** A value the writes keep in every document of a collection, and what a new document starts with. */
interface InitialDerivedValue {
  readonly path: string;
  readonly rule: string;
  readonly initial: () => unknown;
}

/** By collection, as the planners keep them: a document inserted through any type over it feeds the same rules. */
const initialDerivedValues = oncePerModel((collection: string) => collection, (model, collection): readonly InitialDerivedValue[] => {
  const emptyList = () => [];
  return [
    ...model.counters.filter((counter) => counter.collection === collection).map((counter) => ({ path: counter.path, rule: counter.coordinate, initial: () => 0 })),
    ...model.totals.filter((total) => total.collection === collection).map((total) => ({ path: total.path, rule: total.coordinate, initial: () => zeroTotal(total) })),
    ...model.inverses.filter((inverse) => inverse.collection === collection).map((inverse) => ({ path: inverse.path, rule: inverse.coordinate, initial: emptyList })),
    ...model.boundedArrays.filter((array) => array.collection === collection).map((array) => ({ path: array.path, rule: array.coordinate, initial: emptyList })),
  ];
});

/** The snapshot locations whose copies `collection`'s documents hold. */
const snapshotsIn = oncePerModel((collection: string) => collection, (model, collection) => model.snapshots.filter((location) => location.collection === collection));

/**
 * A read finding the children a new document already has where derived values are keyed by another
 * field than `_id` (`code`, when Account.entryCount counts the entries whose accountCode equals it):
 * children may hold that key before any parent does, so the new parent starts with their count, sum
 * or newest copies, not with nothing. One aggregate per child collection and key for the counters and
 * totals, one find per bounded array.
 */
export type ExistingChildrenRead =
  | { readonly kind: 'sums'; readonly childCollection: string; readonly childKey: string; readonly parentKey: string; readonly counters: readonly CounterRule[]; readonly totals: readonly TotalRule[] }
  | { readonly kind: 'copies'; readonly array: BoundedArray };

export const existingChildrenReads = oncePerModel((collection: string) => collection, (model, collection): readonly ExistingChildrenRead[] => {
  const sums = new Map<string, { childCollection: string; childKey: string; parentKey: string; counters: CounterRule[]; totals: TotalRule[] }>();
  const group = (childCollection: string, childKey: string, parentKey: string) => {
    const id = JSON.stringify([childCollection, childKey, parentKey]);
    let found = sums.get(id);
    if (!found) sums.set(id, (found = { childCollection, childKey, parentKey, counters: [], totals: [] }));
    return found;
  };
  for (const counter of model.counters) {
    const source = counter.source;
    if (counter.collection === collection && source.kind === 'children' && source.parentKey !== '_id') group(source.childCollection, source.childKey, source.parentKey).counters.push(counter);
  }
  for (const total of model.totals) if (total.collection === collection && total.parentKey !== '_id') group(total.childCollection, total.childKey, total.parentKey).totals.push(total);
  return [
    ...[...sums.values()].map((read) => ({ kind: 'sums' as const, ...read })),
    ...model.boundedArrays.filter((array) => array.collection === collection && array.parentKey !== '_id').map((array) => ({ kind: 'copies' as const, array })),
  ];
});

/** The aggregate of a 'sums' read for the children holding `key`: their count, and each total's `$sum`. */
export function existingSumsPipeline(read: Extract<ExistingChildrenRead, { kind: 'sums' }>, key: unknown): StoredDocument[] {
  const sums = Object.fromEntries(read.totals.map((total, index) => [`total${index}`, { $sum: `$${total.summedPath}` }]));
  // $eq: a key given in a JSON value ({ $gt: "" }) is compared, never read as an operator.
  return [{ $match: { [read.childKey]: { $eq: key } } }, { $group: { _id: null, count: { $sum: 1 }, ...sums } }];
}

/** `document` with the counters and totals of a 'sums' read set from what its aggregate returned (nothing: no children). */
export function withExistingSums(document: StoredDocument, read: Extract<ExistingChildrenRead, { kind: 'sums' }>, found: StoredDocument | undefined): StoredDocument {
  let complete = document;
  for (const counter of read.counters) complete = withValueAt(complete, counter.path.split('.'), Number(found?.count ?? 0));
  read.totals.forEach((total, index) => {
    complete = withValueAt(complete, total.path.split('.'), sumAsTotalValue(total, found?.[`total${index}`] ?? 0));
  });
  return complete;
}

/** `document` with a bounded array's copies: the children its find returned. */
export function withExistingCopies(document: StoredDocument, array: BoundedArray, children: readonly StoredDocument[]): StoredDocument {
  return withValueAt(document, array.path.split('.'), [...children]);
}

/**
 * A new `typeName` document with its derived values true: counters and totals 0, inverse and bounded
 * arrays empty, each at its path (`stats.weight` inside `stats`, which is made when absent or null).
 * BAD_USER_INPUT when the document gives one of them itself (an input field stored there, a JSON value
 * holding it), or a value other than an object where one lies inside: only the writes set them; and
 * when it gives a snapshot copy without the key that fills it.
 */
export function withInitialDerivedValues(model: WriteModel, typeName: string, collection: string, document: StoredDocument): StoredDocument {
  refuseCopiesWithoutKey(model, typeName, collection, document);
  let complete = document;
  for (const derived of initialDerivedValues(model, collection)) {
    const segments = derived.path.split('.');
    refuseGivenValue(typeName, document, segments, derived.rule);
    complete = withValueAt(complete, segments, derived.initial());
  }
  return complete;
}

/**
 * A snapshot copy is filled from the document its key names (fillSnapshot): one given without a key (a
 * JSON value around it holding `{ name: "…" }`) would be kept as given, never true. BAD_USER_INPUT.
 */
function refuseCopiesWithoutKey(model: WriteModel, typeName: string, collection: string, document: StoredDocument): void {
  for (const location of snapshotsIn(model, collection)) {
    const path = copyPathOf(location);
    const copies = [readPath(document, path)].flat(Infinity);
    const keyless = copies.some((copy) => copy !== undefined && copy !== null && (!isPlainObject(copy) || ownValue(copy, location.key) === undefined || ownValue(copy, location.key) === null));
    if (keyless) {
      throw badUserInput(`the new ${typeName} gives a copy at ${path} without its ${location.key}, where the writes keep ${location.coordinate}'s copies of a ${location.sourceType}; name the ${location.sourceType} by its id, or leave the copy out`, {
        field: location.coordinate,
      });
    }
  }
}

function refuseGivenValue(typeName: string, document: StoredDocument, segments: readonly string[], rule: string): void {
  let value: unknown = document;
  for (const [index, segment] of segments.entries()) {
    value = ownValue(value as StoredDocument, segment);
    const at = segments.slice(0, index + 1).join('.');
    if (index === segments.length - 1) {
      if (value !== undefined) throw badUserInput(`the new ${typeName} gives a value at ${at}, where the writes keep ${rule}; leave it out (a new document starts with it true)`, { field: rule });
      return;
    }
    if (value === undefined || value === null) return;
    if (!isPlainObject(value)) {
      throw badUserInput(`the new ${typeName} gives ${Array.isArray(value) ? 'a list' : 'a value other than an object'} at ${at}, where the writes keep ${rule} inside, at ${segments.join('.')}; give an object there, or leave it out`, { field: rule });
    }
  }
}

/** `container` with `value` at `segments`, the objects on the way copied (or made), never changed. */
function withValueAt(container: StoredDocument, segments: readonly string[], value: unknown): StoredDocument {
  const [segment, ...rest] = segments;
  if (rest.length === 0) return { ...container, [segment!]: value };
  const inner = ownValue(container, segment!);
  return { ...container, [segment!]: withValueAt(isPlainObject(inner) ? inner : {}, rest, value) };
}
