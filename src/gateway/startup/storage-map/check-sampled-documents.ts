import { bsonType } from '../../documents/bson-type';
import { readPath } from '../../documents/read-path';
import type { StoredDocument } from '../../documents/stored-document';
import type { StorageMap, StoredField } from './storage-map-types';

/** How many documents of each collection the startup check reads. */
export const SAMPLE_SIZE = 20;

/** A stored counter (`@counter`): where it lives, to warn when existing documents lack it. */
export interface CountedField {
  readonly coordinate: string;
  readonly collection: string;
  readonly path: string;
}

interface SampleSource {
  sampleDocuments(collection: string, size: number): Promise<StoredDocument[]>;
}

/**
 * Reads the first SAMPLE_SIZE documents of each collection type and compares them with the schema.
 * Refuses a snapshot copy without its key (every miss, fan-out and reconcile goes by that key, so they
 * would all silently find nothing). Warns about a stored field missing where the schema says non-null
 * (that document fails at request time), missing everywhere (a wrong path?), or holding another type
 * than the schema's, and about a counter the documents do not have yet.
 */
export async function checkSampledDocuments(
  storageMap: StorageMap,
  existing: ReadonlySet<string>,
  source: SampleSource,
  counters: readonly CountedField[],
): Promise<{ problems: string[]; warnings: string[] }> {
  const problems: string[] = [];
  const warnings: string[] = [];
  for (const type of storageMap.types.values()) {
    if (type.collection === undefined || !existing.has(type.collection)) continue;
    const sample = await source.sampleDocuments(type.collection, SAMPLE_SIZE);
    if (sample.length === 0) continue;
    const of = `of ${sample.length} sampled ${type.collection} documents`;
    const counted = new Set(counters.filter((counter) => counter.collection === type.collection).map((counter) => counter.path));
    for (const field of type.fields.values()) {
      if (field.kind !== 'stored' || field.isId) continue;
      const values = sample.map((document) => readPath(document, field.path));
      const missing = values.filter((value) => value === undefined || value === null).length;
      if (counted.has(field.path) && missing > 0) {
        warnings.push(`${field.coordinate}: the counter is missing in ${missing} ${of}; run \`docjoin reconcile --fix\` to compute it`);
        continue;
      }
      if (missing === sample.length) warnings.push(`${field.coordinate}: "${field.path}" is missing in all ${of}; check the field name or add @path(path: "...")`);
      else if (missing > 0 && field.valueType.nonNull) warnings.push(`${field.coordinate} is non-null, but "${field.path}" is missing in ${missing} ${of}; reading them fails with "Cannot return null"`);
      const expected = expectedKind(field);
      if (expected === undefined) continue;
      const wrong = values.filter((value) => value !== undefined && value !== null && !matches(value, expected, field.valueType.isList));
      if (wrong.length > 0) {
        warnings.push(`${field.coordinate} is ${field.valueType.isList ? `[${field.valueType.name}]` : field.valueType.name}, but "${field.path}" holds ${describeKind(wrong[0])} in ${wrong.length} ${of}`);
      }
    }
    for (const relation of storageMap.relations.values()) {
      const snapshot = relation.shapes.snapshot;
      if (relation.typeName !== type.typeName || !snapshot) continue;
      const keyless = sample.filter((document) => copiesOf(readPath(document, snapshot.path)).some((copy) => copy[snapshot.key] === undefined || copy[snapshot.key] === null)).length;
      if (keyless > 0) {
        problems.push(
          `${relation.coordinate}: ${keyless} ${of} keep a snapshot at "${snapshot.path}" without its key "${snapshot.key}"; snapshot misses, write fan-out and reconcile all go by "${snapshot.path}.${snapshot.key}", so store the key inside each copy`,
        );
      }
    }
  }
  return { problems, warnings };
}

type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'id';

/** What a stored value of the field's GraphQL type looks like; undefined for custom scalars (not known here). */
function expectedKind(field: StoredField): Kind | undefined {
  if (field.valueType.isEnum) return 'string';
  switch (field.valueType.name) {
    case 'String':
      return 'string';
    case 'Int':
      return 'integer';
    case 'Float':
      return 'number';
    case 'Boolean':
      return 'boolean';
    case 'ID':
      return 'id';
    default:
      return undefined;
  }
}

function matches(value: unknown, kind: Kind, isList: boolean): boolean {
  if (isList) return Array.isArray(value) && value.every((item) => item === null || matches(item, kind, false));
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return (typeof value === 'number' && Number.isInteger(value)) || bsonType(value) === 'Long' || bsonType(value) === 'Int32';
    case 'number':
      return typeof value === 'number' || ['Long', 'Int32', 'Double', 'Decimal128'].includes(bsonType(value) ?? '');
    case 'boolean':
      return typeof value === 'boolean';
    case 'id':
      return typeof value === 'string' || typeof value === 'number' || bsonType(value) === 'ObjectId';
    default: {
      const never: never = kind;
      throw new Error(`unknown kind ${String(never)}`);
    }
  }
}

function describeKind(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date) return 'a date';
  return bsonType(value) ?? (typeof value === 'object' ? 'an object' : `a ${typeof value}`);
}

function copiesOf(value: unknown): Array<Record<string, unknown>> {
  const entries = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return entries.filter((entry): entry is Record<string, unknown> => entry !== null && typeof entry === 'object' && !Array.isArray(entry));
}
