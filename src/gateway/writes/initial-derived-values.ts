import { badUserInput } from '../errors/public-error-code';
import { ownValue, readPath } from '../documents/read-path';
import type { StoredDocument } from '../documents/stored-document';
import type { WriteModel } from '../startup/write-model/write-model-types';
import { zeroTotal } from './total-planner';

/** A value the writes keep in every document of a collection, and what a new document starts with. */
interface InitialDerivedValue {
  readonly path: string;
  readonly rule: string;
  readonly initial: () => unknown;
}

/** By collection, as the planners keep them: a document inserted through any type over it feeds the same rules. */
function initialDerivedValues(model: WriteModel, collection: string): InitialDerivedValue[] {
  const emptyList = () => [];
  return [
    ...model.counters.filter((counter) => counter.collection === collection).map((counter) => ({ path: counter.path, rule: counter.coordinate, initial: () => 0 })),
    ...model.totals.filter((total) => total.collection === collection).map((total) => ({ path: total.path, rule: total.coordinate, initial: () => zeroTotal(total) })),
    ...model.inverses.filter((inverse) => inverse.collection === collection).map((inverse) => ({ path: inverse.path, rule: inverse.coordinate, initial: emptyList })),
    ...model.boundedArrays.filter((array) => array.collection === collection).map((array) => ({ path: array.path, rule: array.coordinate, initial: emptyList })),
  ];
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
  for (const location of model.snapshots) {
    if (location.collection !== collection) continue;
    const path = location.segments.map((segment) => segment.path).join('.');
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

function isPlainObject(value: unknown): value is StoredDocument {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
