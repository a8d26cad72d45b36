import type { Document } from 'bson';
import { containsString } from '../query';

/** How a filter's candidate documents are found; the full filter runs on the candidates unless the plan is exact (isExactPlan). */
export type QueryPlan =
  | { readonly kind: 'id'; readonly values: readonly unknown[] }
  | { readonly kind: 'index'; readonly indexName: string; readonly field: string; readonly values: readonly unknown[] }
  | { readonly kind: 'scan' };

/**
 * Picks an index for `filter`: an equality or `$in` on `_id` or on the first field of a secondary
 * index, at the top level or inside `$and`. Among several, the one with the fewest values wins.
 * `indexedFields` maps a first field to the name of an index on it. Under a collation (`collated`)
 * index keys, which are binary, cannot find strings equal under it, so values holding strings are
 * not looked up (MongoDB too uses an index for strings only when its collation matches).
 * `sparseFields`: first fields whose index is sparse, which leaves out the documents missing them.
 */
export function planQuery(filter: Document, indexedFields: ReadonlyMap<string, string>, collated = false, sparseFields: ReadonlySet<string> = NO_FIELDS): QueryPlan {
  const constraints = equalityConstraints(filter, collated, (field) => field === '_id' || (!field.includes('.') && indexedFields.has(field) && !sparseFields.has(field)));
  const onId = constraints.get('_id');
  if (onId !== undefined) return { kind: 'id', values: onId };
  let best: QueryPlan = { kind: 'scan' };
  for (const [field, values] of constraints) {
    const indexName = indexedFields.get(field);
    if (indexName === undefined) continue;
    if (best.kind === 'scan' || (best.kind === 'index' && values.length < best.values.length)) {
      best = { kind: 'index', indexName, field, values };
    }
  }
  return best;
}

const NO_FIELDS: ReadonlySet<string> = new Set();

/**
 * For each field the filter pins to a finite set of values, those values (intersecting nothing; any
 * one set is a sound superset). Null, which also matches a missing field, pins only the fields
 * `findsNull` names: `_id`, which every stored document has, and top-level fields whose index keys a
 * document missing them as null (equality-index.ts), as MongoDB's non-sparse indexes do. Not a dotted
 * path: the index walks one (path-values.ts) differently from the filter (document-path.ts) through a
 * DBRef or a regex value and past the end of an array, so its null key can miss a document null matches.
 */
export function equalityConstraints(filter: Document, collated = false, findsNull: (field: string) => boolean = () => false): Map<string, unknown[]> {
  const constraints = new Map<string, unknown[]>();
  const note = (field: string, values: unknown[] | undefined) => {
    if (values === undefined) return;
    const known = constraints.get(field);
    if (known === undefined || values.length < known.length) constraints.set(field, values);
  };
  for (const [field, condition] of Object.entries(filter)) {
    if (field === '$and' && Array.isArray(condition)) {
      for (const clause of condition) {
        if (isDocument(clause)) for (const [inner, values] of equalityConstraints(clause, collated, findsNull)) note(inner, values);
      }
      continue;
    }
    if (field.startsWith('$')) continue;
    const values = valuesOf(condition, findsNull(field));
    note(field, collated && values?.some(containsString) ? undefined : values);
  }
  return constraints;
}

/** The values a field condition allows, when it is an equality or `$in` over indexable values. */
function valuesOf(condition: unknown, findsNull: boolean): unknown[] | undefined {
  if (isOperatorDocument(condition)) {
    if ('$eq' in condition) return indexable([condition.$eq], findsNull);
    if (Array.isArray(condition.$in)) return indexable(condition.$in, findsNull);
    return undefined;
  }
  return indexable([condition], findsNull);
}

/**
 * Regexes match by pattern, so they cannot be looked up by key; nor can null where the key of a
 * missing field is not null (`findsNull`). `$lookup` sends null for each parent without the local
 * field (`{ _id: { $in: [ …, null ] } }`). Such conditions fall back to a scan.
 */
function indexable(values: unknown[], findsNull: boolean): unknown[] | undefined {
  for (const value of values) {
    if ((value === null && !findsNull) || value === undefined || value instanceof RegExp) return undefined;
    if (typeof value === 'object' && value !== null && (value as { _bsontype?: unknown })._bsontype === 'BSONRegExp') return undefined;
  }
  return values;
}

function isOperatorDocument(value: unknown): value is Document {
  if (!isDocument(value)) return false;
  const first = Object.keys(value)[0];
  return first !== undefined && first.startsWith('$');
}

function isDocument(value: unknown): value is Document {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Date) return false;
  return (value as { _bsontype?: unknown })._bsontype === undefined;
}

/**
 * Whether an id or index plan finds exactly the documents `filter` matches, so the filter need not
 * run on its candidates: the filter is a single equality or `$in` on the planned field, the path has
 * no numeric segments (the index reaches into array elements there, the filter does not), and every
 * value is a string, ObjectId, finite number, boolean or Date, whose index key equality is the
 * filter's equality, or null on `_id`. Arrays, documents and other types keep the re-check.
 */
export function isExactPlan(filter: Document, plan: QueryPlan): boolean {
  if (plan.kind === 'scan') return false;
  const field = plan.kind === 'id' ? '_id' : plan.field;
  const keys = Object.keys(filter);
  if (keys.length !== 1 || keys[0] !== field || field.split('.').some((part) => /^\d+$/.test(part))) return false;
  const condition: unknown = filter[field];
  let values: unknown[];
  if (isOperatorDocument(condition)) {
    const operators = Object.keys(condition);
    if (operators.length !== 1) return false;
    if (operators[0] === '$eq') values = [condition.$eq];
    else if (operators[0] === '$in' && Array.isArray(condition.$in)) values = condition.$in;
    else return false;
  } else values = [condition];
  // Every stored document has an `_id`: null there finds exactly the documents whose `_id` is null.
  return values.every((value) => hasPlainEquality(value) || (value === null && plan.kind === 'id'));
}

function hasPlainEquality(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      if (value instanceof Date) return !Number.isNaN(value.getTime());
      return value !== null && (value as { _bsontype?: unknown })._bsontype === 'ObjectId';
    default:
      return false;
  }
}
