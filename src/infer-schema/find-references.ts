import type { Document } from 'mongodb';
import { readPath } from '../gateway';
import { relationNameOf, singularOfName, camelCase } from './names';
import { idKey } from './sample-database';
import { kindsOf, kindOf, type ObjectShape, type ValueShape } from './value-shape';

/** Distinct values per path looked up: enough to tell a reference from a coincidence. */
export const MAX_VALUES_PER_PATH = 500;

/** A path of a collection's documents that holds ObjectIds (one, or an array of them). */
export interface ObjectIdPath {
  readonly collection: string;
  /** Dot notation from the document's root (`holdings.stockId`). */
  readonly path: string;
  /** The path holds an array of ObjectIds (`taskIds`). */
  readonly many: boolean;
  /** Some part of the path before the ObjectId is an array (`authors.id`): it has several values per document. */
  readonly crossesArray: boolean;
  /** Distinct ObjectIds sampled there, at most MAX_VALUES_PER_PATH. */
  readonly values: readonly unknown[];
  /** Values held there as strings beside the ObjectIds (fewer than they): a join by ObjectId finds none of them. */
  readonly strings: number;
}

/** An ObjectId path whose values are, for the most part, `_id`s of `target`. */
export interface Reference extends ObjectIdPath {
  readonly target: string;
  /** How many of the distinct sampled values `target` holds. */
  readonly found: number;
}

/**
 * Every path of the sampled documents whose values are ObjectIds (or arrays of them), through
 * sub-documents and arrays of them; the collection's own `_id` is left out. A few strings among more
 * ObjectIds (ids some writer stored as text) keep the path: the draft names them (`strings`).
 */
export function objectIdPaths(collection: string, shape: ObjectShape, documents: readonly Document[]): ObjectIdPath[] {
  const paths: ObjectIdPath[] = [];
  const visit = (object: ObjectShape, prefix: string, crossesArray: boolean) => {
    for (const [key, value] of object.fields) {
      if (key.includes('.') || key.startsWith('$')) continue;
      const path = prefix === '' ? key : `${prefix}.${key}`;
      const kinds = kindsOf(value);
      const elementKinds = value.elements ? kindsOf(value.elements) : [];
      const single = mostlyObjectIds(value);
      const many = kinds.length === 1 && kinds[0] === 'array' && value.elements !== undefined && mostlyObjectIds(value.elements);
      if ((single || many) && path !== '_id') {
        const strings = (single ? value : value.elements!).kinds.get('string') ?? 0;
        paths.push({ collection, path, many, crossesArray, values: distinctObjectIds(documents, path), strings });
      }
      if (kinds.length === 1 && kinds[0] === 'object' && value.object) visit(value.object, path, crossesArray);
      if (kinds.length === 1 && kinds[0] === 'array' && elementKinds.length === 1 && elementKinds[0] === 'object' && value.elements?.object) visit(value.elements.object, path, true);
    }
  };
  visit(shape, '', false);
  return paths;
}

/** ObjectIds, with fewer strings than ObjectIds beside them at most. */
function mostlyObjectIds(shape: ValueShape): boolean {
  const objectIds = shape.kinds.get('objectId') ?? 0;
  return objectIds > (shape.kinds.get('string') ?? 0) && kindsOf(shape).every((kind) => kind === 'objectId' || kind === 'string');
}

/**
 * The paths most of whose distinct values one collection holds as `_id`s (`owners`, by idKey, from
 * collectionsHoldingIds). Where two collections hold as many (one sharing the other's ids), the one
 * named like the path wins (`userId` → users), then the first by name.
 */
export function resolveReferences(paths: readonly ObjectIdPath[], owners: ReadonlyMap<string, readonly string[]>): Reference[] {
  const references: Reference[] = [];
  for (const path of paths) {
    const counts = new Map<string, number>();
    for (const value of path.values) for (const owner of owners.get(idKey(value)) ?? []) counts.set(owner, (counts.get(owner) ?? 0) + 1);
    const named = namedTarget(path.path);
    const isNamed = (collection: string) => Number(camelCase(singularOfName(collection)) === named);
    const ranked = [...counts.entries()].sort(([a, countA], [b, countB]) => countB - countA || isNamed(b) - isNamed(a) || (a < b ? -1 : 1));
    const best = ranked[0];
    if (best && best[1] * 2 > path.values.length) references.push({ ...path, target: best[0], found: best[1] });
  }
  return references;
}

/** The collection a path's name points at, as a singular camel-case word (`authorIds` → `author`). */
function namedTarget(path: string): string {
  const key = path.slice(path.lastIndexOf('.') + 1);
  return camelCase(singularOfName(relationNameOf(key) ?? key));
}

function distinctObjectIds(documents: readonly Document[], path: string): unknown[] {
  const values = new Map<string, unknown>();
  const add = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(add);
    else if (kindOf(value) === 'objectId' && values.size < MAX_VALUES_PER_PATH) values.set(idKey(value), value);
  };
  for (const document of documents) add(readPath(document, path));
  return [...values.values()];
}
