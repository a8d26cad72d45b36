import { getNullableType, isEnumType, isListType, isNonNullType, isObjectType, isScalarType, specifiedScalarTypes, type GraphQLEnumType, type GraphQLOutputType, type GraphQLSchema } from 'graphql';
import { bsonType } from '../../documents/bson-type';
import { readPath } from '../../documents/read-path';
import { isPlainObject, type StoredDocument } from '../../documents/stored-document';
import { isProvidedScalar } from '../scalars/provided-scalars';
import type { RelationField, StorageMap, StoredField, TypeStorage } from './storage-map-types';

/**
 * Which documents of each collection the startup check reads: the first in `_id` order (the same on
 * every start), and more picked at random (`$sample`), so that what differs in some documents only is
 * likely among them (a whole collection when it is that small).
 */
export const DOCUMENT_SAMPLE: DocumentSample = Object.freeze({ first: 20, random: 100 });

export interface DocumentSample {
  readonly first: number;
  readonly random: number;
}

/** A stored counter (`@counter`) or total (`@total`): where it lives, to warn when existing documents lack it. */
export interface CountedField {
  readonly coordinate: string;
  readonly collection: string;
  readonly path: string;
  /** Which it is, for the warning (default: a counter). */
  readonly derived?: 'counter' | 'total';
}

interface SampleSource {
  sampleDocuments(collection: string, sample: DocumentSample): Promise<StoredDocument[]>;
}

/** Embedded types inside embedded types are checked this deep, at most (a recursive type ends here). */
const MAX_EMBEDDED_DEPTH = 8;

/**
 * Reads a sample of each collection type's documents (DOCUMENT_SAMPLE) and compares them with the schema.
 * Refuses a snapshot copy without its key (every miss, fan-out and reconcile goes by that key, so they
 * would all silently find nothing). Warns about a stored field, or the key of a single join, missing
 * where the schema says non-null (that document fails at request time), missing everywhere (a wrong path?), or holding another type
 * than the schema's, in the documents and in the values of their embedded types, and about a counter or
 * total the documents do not have yet. `schema`, the executable one,
 * tells which enum values the documents may hold (an enum value's internal value, when resolvers map
 * one) and whether `DateTime` is docjoin's (BSON dates); without it an enum is checked to hold strings,
 * and `DateTime` to hold dates.
 */
export async function checkSampledDocuments(
  storageMap: StorageMap,
  existing: ReadonlySet<string>,
  source: SampleSource,
  counters: readonly CountedField[],
  schema?: GraphQLSchema,
): Promise<SampleFindings> {
  const problems: string[] = [];
  const warnings: string[] = [];
  const incompleteCopies: string[] = [];
  const samples = new Map<string, Promise<StoredDocument[]>>();
  const sampleOf = (collection: string): Promise<StoredDocument[]> => {
    let sample = samples.get(collection);
    if (!sample) samples.set(collection, (sample = existing.has(collection) ? source.sampleDocuments(collection, DOCUMENT_SAMPLE) : Promise.resolve([])));
    return sample;
  };
  for (const type of storageMap.types.values()) {
    if (type.collection === undefined || !existing.has(type.collection)) continue;
    const sample = await sampleOf(type.collection);
    if (sample.length === 0) continue;
    const sampled = `${sample.length} sampled ${type.collection} documents`;
    const of = `of ${sampled}`;
    const otherIds = sample.filter((document) => document._id !== undefined && bsonType(document._id) !== 'ObjectId');
    if (otherIds.length > 0) {
      // 24 hex digits pass as an ObjectId's, so those ids are not refused but name another value.
      const hexIds = otherIds.filter((document) => typeof document._id === 'string' && /^[0-9a-fA-F]{24}$/.test(document._id));
      const argument =
        hexIds.length === 0
          ? 'refuses theirs'
          : `refuses theirs, and reads one of 24 hex digits (${describeId(hexIds[0]!._id)}) as the ObjectId: @find finds nothing, a page after it skips or refuses the items that follow, and writes miss it`;
      warnings.push(
        `${type.typeName}: ${otherIds.length} ${of} have an _id that is no ObjectId (${describeId(otherIds[0]!._id)}), and docjoin takes ids as ObjectIds: an id argument (@find, after:, the generated updates and deletes) ${argument}; give them ObjectIds, or serve them with resolvers of your own`,
      );
    }
    const counted = new Map(counters.filter((counter) => counter.collection === type.collection).map((counter) => [counter.path, counter.derived ?? 'counter']));
    const storedFields = new StoredFieldCheck(storageMap, schema, type.collection, warnings);
    storedFields.check(type, sample, { of, sampled, counted });
    // As a copy some documents lack: read by query for every parent, and so estimated, until the next start.
    for (const counter of counters) {
      if (counter.collection === type.collection && sample.some((document) => (readPath(document, counter.path) ?? null) === null)) incompleteCopies.push(counter.coordinate);
    }
    for (const relation of storageMap.relations.values()) {
      const join = relation.shapes.join;
      if (relation.typeName !== type.typeName || !join) continue;
      const localKeys = sample.map((document) => readPath(document, join.localField));
      if (join.direction === 'byKey' && relation.nonNull && !relation.isList) {
        const keyless = localKeys.filter((key) => key === undefined || key === null).length;
        if (keyless > 0) warnings.push(`${relation.coordinate} is non-null, but its key "${join.localField}" is missing in ${keyless} ${of}; joining finds nothing for them, and reading them fails with "Cannot return null"`);
      }
      const localKinds = kindsOf(localKeys.flat());
      const foreignKinds = kindsOf((await sampleOf(join.collection)).flatMap((document) => [readPath(document, join.foreignField)].flat()));
      // The side that holds references to the other's keys: this type's documents by key, the children in a reverse join.
      const [referring, referred] = join.direction === 'byKey' ? [localKinds, foreignKinds] : [foreignKinds, localKinds];
      const strays = [...referring.keys()].filter((kind) => referred.size > 0 && !referred.has(kind));
      if (strays.length === 0) continue;
      const held = strays.map((kind) => `${referring.get(kind)} ${kind} value${referring.get(kind) === 1 ? '' : 's'}`).join(' and ');
      const keys = [...referred.keys()].join(' or ');
      warnings.push(
        join.direction === 'byKey'
          ? `${relation.coordinate}: its key "${join.localField}" holds ${held} (in ${sample.length} sampled ${type.collection} documents), but the ${join.collection} ${join.foreignField === '_id' ? 'ids' : `"${join.foreignField}" keys`} are ${keys}: those references find nothing (null); store the ${join.foreignField === '_id' ? 'ids' : 'keys'} as the ${join.collection} documents have them`
          : `${relation.coordinate}: the ${join.collection} documents keep "${join.foreignField}" as ${held} (sampled), but the ${type.collection} "${join.localField}" ${join.localField === '_id' ? 'ids' : 'keys'} are ${keys}: those children are never found (the lists are empty); store the keys as the ${type.collection} documents have them`,
      );
    }
    for (const relation of storageMap.relations.values()) {
      const snapshot = relation.shapes.snapshot;
      if (relation.typeName !== type.typeName || !snapshot) continue;
      const isKeyless = (document: StoredDocument) => copiesOf(readPath(document, snapshot.path)).some((copy) => copy[snapshot.key] === undefined || copy[snapshot.key] === null);
      const keyless = sample.filter(isKeyless).length;
      if (keyless === 0) continue;
      const found = `${relation.coordinate}: ${keyless} ${of} keep a snapshot at "${snapshot.path}" without its key "${snapshot.key}"; snapshot misses, write fan-out and reconcile all go by "${snapshot.path}.${snapshot.key}", so store the key inside each copy`;
      // Refused on what every start reads alike (the first documents in _id order); the ones picked at random warn.
      if (sample.slice(0, DOCUMENT_SAMPLE.first).some(isKeyless)) problems.push(found);
      else warnings.push(`${found} (startup refuses it once such a document is among the first ${DOCUMENT_SAMPLE.first} in _id order)`);
    }
    for (const relation of storageMap.relations.values()) {
      if (relation.typeName !== type.typeName) continue;
      const lacking = copiesLacking(storageMap, relation, sample);
      if (!lacking) continue;
      incompleteCopies.push(relation.coordinate);
      warnings.push(`${relation.coordinate}: ${lacking.documents} ${of} ${lacking.what}; reads that need it join for those documents, and the estimates count that join until docjoin restarts after ${lacking.fix}`);
    }
  }
  return { problems, warnings, incompleteCopies };
}

/** What the sample tells besides the problems and the warnings. */
export interface SampleFindings {
  readonly problems: string[];
  readonly warnings: string[];
  /**
   * Copies some sampled documents lack, which no migration marker announces (copy-backfills.ts): a
   * snapshot's declared field (one widened before `docjoin migrate` filled it, or never set), a bounded
   * array (declared after its parents were written). The resolvers join those; the estimate must too.
   */
  readonly incompleteCopies: string[];
}

/** The sampled documents whose copy of `relation` is not whole, and what they lack; undefined when none. */
function copiesLacking(storageMap: StorageMap, relation: RelationField, sample: readonly StoredDocument[]): { documents: number; what: string; fix: string } | undefined {
  const { snapshot, embedded, join } = relation.shapes;
  if (snapshot) {
    // The field reading the target's _id is the copy's key, whatever the key's name (`key: "_id"` beside an `id` field).
    const target = storageMap.types.get(relation.targetType);
    const readsId = (name: string) => {
      const storage = target?.fields.get(name);
      return storage?.kind === 'stored' && storage.path === '_id';
    };
    const declared = snapshot.fields.filter((name) => name !== snapshot.key && !readsId(name));
    const lacked = new Set<string>();
    const documents = sample.filter((document) => {
      const missing = copiesOf(readPath(document, snapshot.path)).flatMap((copy) => declared.filter((name) => copy[name] === undefined));
      for (const name of missing) lacked.add(name);
      return missing.length > 0;
    }).length;
    if (documents === 0) return undefined;
    const names = [...lacked].sort();
    return {
      documents,
      what: `keep a snapshot at "${snapshot.path}" without ${names.map((name) => `"${name}"`).join(', ')}, which its @snapshot(fields:) declares`,
      fix: `\`docjoin migrate --widen ${relation.coordinate} --fields ${names.join(',')} --write\` fills them`,
    };
  }
  if (embedded && join?.direction === 'byReference') {
    const documents = sample.filter((document) => readPath(document, embedded.path) === undefined).length;
    if (documents === 0) return undefined;
    return { documents, what: `have no "${embedded.path}" (the bounded array of ${relation.coordinate})`, fix: '`docjoin reconcile --fix` builds them' };
  }
  return undefined;
}

/** Where the values checked come from, as the warnings say it. */
interface SampledValues {
  /** `of 20 sampled people documents`, or `of 12 values at "addresses" in 20 sampled people documents`. */
  readonly of: string;
  /** `20 sampled people documents`. */
  readonly sampled: string;
  /** The stored counters and totals by path (top-level documents only). */
  readonly counted?: ReadonlyMap<string, 'counter' | 'total'>;
  /** The path from the collection's documents to these values, for embedded ones. */
  readonly embeddedAt?: string;
}

/** The stored fields of one collection's sample, its documents' and then its embedded values'. */
class StoredFieldCheck {
  constructor(
    private readonly storageMap: StorageMap,
    private readonly schema: GraphQLSchema | undefined,
    private readonly collection: string,
    private readonly warnings: string[],
  ) {}

  check(type: TypeStorage, documents: readonly StoredDocument[], where: SampledValues, depth = 0): void {
    for (const field of type.fields.values()) {
      if (field.kind === 'stored' && !field.isId) this.#checkField(field, documents.map((document) => readPath(document, field.path)), where);
      if (field.kind !== 'relation' || !field.shapes.embedded || depth >= MAX_EMBEDDED_DEPTH) continue;
      const target = this.storageMap.types.get(field.targetType);
      const path = field.shapes.embedded.path;
      const embeddedAt = where.embeddedAt === undefined ? path : `${where.embeddedAt}.${path}`;
      this.#checkEmbeddedShape(field, documents.map((document) => readPath(document, path)), embeddedAt, where);
      const values = documents.flatMap((document) => copiesOf(readPath(document, path)));
      if (!target || target.collection !== undefined || values.length === 0) continue;
      this.check(target, values, { of: `of ${values.length} values at "${embeddedAt}" in ${where.sampled}`, sampled: where.sampled, embeddedAt }, depth + 1);
    }
  }

  /**
   * An embedded field holding what is no document where one belongs (a string for an Address, a null or
   * a number among `[Line!]`'s elements): the projection of the fields inside leaves it out, so the
   * answer would differ from the data; and a non-null one that is missing fails its reads.
   */
  #checkEmbeddedShape(field: RelationField, values: readonly unknown[], embeddedAt: string, where: SampledValues): void {
    const missing = values.filter((value) => value === undefined || value === null).length;
    // A bounded array's absence has its own warning, with its fix.
    // A missing list reads as [] where it is non-null, else null (resolveEmbedded); a missing document fails a non-null field.
    if (missing > 0 && field.nonNull && !field.isList && !field.shapes.join) {
      this.warnings.push(`${field.coordinate} is non-null, but "${embeddedAt}" is missing in ${missing} ${where.of}; reading them fails with "Cannot return null"`);
    }
    const misfits = values.flatMap((value) => misfitsOf(value, field));
    if (misfits.length === 0) return;
    const belongs = field.isList ? `a list of ${field.targetType} documents${field.nullableElements ? ' or nulls' : ''}` : `a document of type ${field.targetType}`;
    this.warnings.push(
      `${field.coordinate}: "${embeddedAt}" holds ${misfits[0] === null ? 'null' : describeKind(misfits[0])} where ${belongs} belongs (${misfits.length} such value${misfits.length === 1 ? '' : 's'} ${where.of}); docjoin reads the fields inside it, which leaves such a value out of the answer, so correct or remove it${field.isList && !field.nullableElements ? `, or make the elements nullable ([${field.targetType}]) if a null is meant` : ''}`,
    );
  }

  #checkField(field: StoredField, values: readonly unknown[], where: SampledValues): void {
    const { of } = where;
    const missing = values.filter((value) => value === undefined || value === null).length;
    const derived = where.counted?.get(field.path);
    if (derived && missing > 0) {
      const read = derived === 'counter' ? 'count' : 'sum';
      this.warnings.push(`${field.coordinate}: the ${derived} is missing in ${missing} ${of}; reads ${read} it by query for every ${field.typeName}, and the estimates count that query, until docjoin restarts after \`docjoin reconcile --fix\` computes it`);
      return;
    }
    if (missing === values.length) {
      const fix = field.path === field.fieldName ? 'check the field name or add @path(path: "...")' : `check its @path(path: "${field.path}")`;
      const fails = field.valueType.nonNull ? ', and as the field is non-null, reading it fails with "Cannot return null" in each of them' : '';
      this.warnings.push(`${field.coordinate}: "${field.path}" is missing in all ${of}${fails}; ${fix}`);
    }
    else if (missing > 0 && field.valueType.nonNull) this.warnings.push(`${field.coordinate} is non-null, but "${field.path}" is missing in ${missing} ${of}; reading them fails with "Cannot return null"`);
    if (field.valueType.isList) this.warnings.push(...listShapeWarnings(field, values, of, this.schema));
    const mismatch = storedTypeMismatch(field, values, this.schema);
    if (mismatch) this.warnings.push(describeMismatch(field, mismatch, where, this.collection, this.schema));
  }
}

type Kind = 'string' | 'integer' | 'number' | 'boolean' | 'id' | 'date' | 'decimal';

/** What a field's stored values must be, from its GraphQL type; undefined when that is not known (a custom scalar). */
type Expected = { readonly kind: Kind } | { readonly kind: 'enum'; readonly enumType: GraphQLEnumType };

/**
 * The first stored value of a sample that is not what the field's type expects, and in how many documents
 * such values are: of its kind (any value not of the enum's, for an enum), and how many of each other kind.
 */
interface Mismatch {
  readonly expected: Expected;
  readonly first: unknown;
  readonly count: number;
  readonly otherKinds: ReadonlyMap<string, number>;
}

function storedTypeMismatch(field: StoredField, values: readonly unknown[], schema: GraphQLSchema | undefined): Mismatch | undefined {
  const expected = expectedOf(field, schema);
  if (expected === undefined) return undefined;
  const accepts = (value: unknown) => (expected.kind === 'enum' ? expected.enumType.getValues().some((enumValue) => enumValue.value === value) : matches(value, expected.kind));
  // In a list field's arrays, the first wrong item (a value that is no array has its own warning: listShapeWarnings).
  const offending = values.flatMap((value) => {
    if (value === undefined || value === null) return [];
    if (!field.valueType.isList) return accepts(value) ? [] : [value];
    if (!Array.isArray(value)) return [];
    // A list of lists (`[[Int]]`) holds its values that many arrays deep.
    const items: unknown[] = value.flat((field.valueType.listDepth ?? 1) - 1);
    const wrong = items.find((item) => item !== null && item !== undefined && !accepts(item));
    return wrong === undefined ? [] : [wrong];
  });
  if (offending.length === 0) return undefined;
  const first = offending[0];
  if (expected.kind === 'enum') return { expected, first, count: offending.length, otherKinds: new Map() };
  const otherKinds = new Map<string, number>();
  const firstKind = describeKind(first);
  for (const kind of offending.map(describeKind)) if (kind !== firstKind) otherKinds.set(kind, (otherKinds.get(kind) ?? 0) + 1);
  return { expected, first, count: offending.length - [...otherKinds.values()].reduce((sum, n) => sum + n, 0), otherKinds };
}

function expectedOf(field: StoredField, schema: GraphQLSchema | undefined): Expected | undefined {
  if (field.valueType.isEnum) {
    const enumType = schema?.getType(field.valueType.name);
    return isEnumType(enumType) ? { kind: 'enum', enumType } : { kind: 'string' };
  }
  switch (field.valueType.name) {
    case 'String':
      return { kind: 'string' };
    case 'Int':
      return { kind: 'integer' };
    case 'Float':
      return { kind: 'number' };
    case 'Boolean':
      return { kind: 'boolean' };
    case 'ID':
      return { kind: 'id' };
    case 'DateTime':
    case 'Long':
    case 'Decimal': {
      // A scalar of the user's own stores whatever it stores.
      const scalar = schema?.getType(field.valueType.name);
      if (schema !== undefined && !(isScalarType(scalar) && isProvidedScalar(scalar))) return undefined;
      return { kind: field.valueType.name === 'DateTime' ? 'date' : field.valueType.name === 'Long' ? 'integer' : 'decimal' };
    }
    default:
      return undefined;
  }
}

function describeMismatch(field: StoredField, mismatch: Mismatch, where: SampledValues, collection: string, schema: GraphQLSchema | undefined): string {
  const { expected, first } = mismatch;
  const others = [...mismatch.otherKinds].map(([kind, count]) => `${kind} in ${count} more`);
  const inSampled = `in ${mismatch.count} ${where.of}${others.length > 0 ? ` (and ${others.join(', ')})` : ''}`;
  const declared = `${field.coordinate} is ${declaredTypeText(field, schema)}`;
  const path = field.path;
  // A command that converts the values in place; inside an embedded array it would need arrayFilters, so only the fix is named there.
  const converted = (type: string, operator: string, fix: string) =>
    field.valueType.isList || where.embeddedAt !== undefined ? fix : `convert them: db.${collection}.updateMany({ ${JSON.stringify(path)}: { $type: "${type}" } }, [{ $set: { ${JSON.stringify(path)}: { ${operator}: ${JSON.stringify(`$${path}`)} } } }])`;
  if (expected.kind === 'enum') {
    return `${declared}, but "${path}" holds ${describeValue(first)} ${inSampled}, which is not a value of ${expected.enumType.name} (${enumValuesOf(expected.enumType)}): filters on it will not match those documents, and reading it there fails`;
  }
  if (expected.kind === 'date' && typeof first === 'string') {
    return `${declared}, but "${path}" holds a string (${JSON.stringify(first)}) ${inSampled}, not a BSON date: ordering by it sorts those as strings, before every date, range filters on it (given dates) never match them, and its min/max rank them apart from the dates; ${converted('string', '$toDate', 'store BSON dates')}`;
  }
  if (expected.kind === 'date') {
    return `${declared}, but "${path}" holds ${describeKind(first)} ${inSampled}, not a BSON date: ordering by it, range filters on it (given dates) and its min/max do not compare it as a date; store BSON dates`;
  }
  if (expected.kind === 'id') {
    return `${declared}, but "${path}" holds ${describeValue(first)} ${inSampled}, not an ObjectId: filters and access rules compare an ID field with ObjectIds and generated writes store ObjectIds, so they never match those documents; store ObjectIds, or make ${field.coordinate} a String`;
  }
  if (expected.kind === 'decimal' && (typeof first === 'number' || bsonType(first) === 'Double')) {
    return `${declared}, but "${path}" holds a double (${describeValue(first)}) ${inSampled}, not a BSON Decimal128: it keeps about 16 digits and sums over it add doubles; ${converted('double', '$toDecimal', 'store Decimal128 values')}`;
  }
  const holdsArrays = !field.valueType.isList && (Array.isArray(first) || mismatch.otherKinds.has('an array'));
  const arrays = holdsArrays ? '; an array it orders by its smallest element, its largest descending' : '';
  return `${declared}, but "${path}" holds ${describeValue(first)} ${inSampled}: ${howServed(field.valueType.name, first, schema)}, and filters, orders and min/max on it compare it as stored (MongoDB orders values of different types by type first, so a list ordered by it puts them apart from the others${arrays}); store ${field.valueType.name} values there, or declare the type the data holds`;
}

/** What fails to read in a list field's values: a value that is no array, an array holding null where the items are non-null. */
function listShapeWarnings(field: StoredField, values: readonly unknown[], of: string, schema: GraphQLSchema | undefined): string[] {
  const warnings: string[] = [];
  const declared = declaredFieldType(field, schema);
  const nullItems = declared === undefined ? 0 : values.filter((value) => Array.isArray(value) && holdsNullWhereNonNull(value, declared)).length;
  if (nullItems > 0) {
    warnings.push(`${field.coordinate} is ${String(declared)}, but "${field.path}" holds a null item in ${nullItems} ${of}; reading them fails with "Cannot return null" (GraphQL nulls the whole list, or its parent), so remove the nulls, or make the items nullable`);
  }
  const notArrays = values.filter((value) => value !== undefined && value !== null && !Array.isArray(value));
  if (notArrays.length > 0) {
    warnings.push(
      `${field.coordinate} is ${declaredTypeText(field, schema)}, but "${field.path}" holds ${describeValue(notArrays[0])} in ${notArrays.length} ${of}, not an array: reading it there fails (GraphQL's "Expected Iterable" error), and filters on it match it as they would an array holding it; store arrays there (a single value as an array of one), or declare the type the data holds`,
    );
  }
  return warnings;
}

/** The field's type as the SDL writes it (`[[Int!]!]`); without the schema, its name in as many brackets as it has lists. */
function declaredTypeText(field: StoredField, schema: GraphQLSchema | undefined): string {
  const declared = declaredFieldType(field, schema);
  if (declared) return String(declared);
  const depth = field.valueType.isList ? (field.valueType.listDepth ?? 1) : 0;
  return `${'['.repeat(depth)}${field.valueType.name}${']'.repeat(depth)}`;
}

/** The field's GraphQL type, from the schema; undefined without one. */
function declaredFieldType(field: StoredField, schema: GraphQLSchema | undefined): GraphQLOutputType | undefined {
  const type = schema?.getType(field.typeName);
  return isObjectType(type) ? type.getFields()[field.fieldName]?.type : undefined;
}

/** Whether a stored array holds a null (or missing) item where its list type's items are non-null (`[String!]`), at any depth. */
function holdsNullWhereNonNull(array: readonly unknown[], type: GraphQLOutputType): boolean {
  const list = getNullableType(type);
  if (!isListType(list)) return false;
  const item = list.ofType as GraphQLOutputType;
  return array.some((value) => (value === null || value === undefined ? isNonNullType(item) : Array.isArray(value) && holdsNullWhereNonNull(value, item)));
}

/** What GraphQL answers for a stored value of another type: the field's scalar converts it (`true` as an Int is 1), or fails. */
function howServed(scalarName: string, value: unknown, schema: GraphQLSchema | undefined): string {
  const scalar = schema?.getType(scalarName) ?? specifiedScalarTypes.find((type) => type.name === scalarName);
  if (!isScalarType(scalar)) return `reading it fails (it is no value of ${scalarName})`;
  try {
    return `GraphQL answers it converted, as ${JSON.stringify(scalar.serialize(value))}, with nothing to say so`;
  } catch (error) {
    return `reading it fails ("${error instanceof Error ? error.message : String(error)}")`;
  }
}

/** The enum's values, each with what documents hold for it when that is not its name; the first ten. */
function enumValuesOf(enumType: GraphQLEnumType): string {
  const values = enumType.getValues().map((value) => (value.value === value.name ? value.name : `${value.name} stored as ${describeValue(value.value)}`));
  return values.length > 10 ? `${values.slice(0, 10).join(', ')} and ${values.length - 10} more` : values.join(', ');
}

function matches(value: unknown, kind: Kind): boolean {
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
      return bsonType(value) === 'ObjectId';
    case 'date':
      return isDate(value);
    case 'decimal':
      return bsonType(value) === 'Decimal128';
    default: {
      const never: never = kind;
      throw new Error(`unknown kind ${String(never)}`);
    }
  }
}

/** A value as a message shows it: a string or number as written, anything else by its kind. */
function describeValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return describeKind(value);
}

/** Also a Date of another realm (a vm context), which `instanceof` would miss. */
function isDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === '[object Date]';
}

function describeKind(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (isDate(value)) return 'a date';
  return bsonType(value) ?? (typeof value === 'object' ? 'an object' : `a ${typeof value}`);
}

/** How many of `values` hold each kind of id (ObjectId, string, number…), nulls left out. */
function kindsOf(values: readonly unknown[]): Map<string, number> {
  const kinds = new Map<string, number>();
  for (const value of values) {
    if (value === undefined || value === null) continue;
    const kind = bsonType(value) ?? typeof value;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return kinds;
}

/** The values of an embedded field's stored value that are no document where one belongs (nulls only where the list's elements may be null). */
function misfitsOf(value: unknown, field: RelationField): unknown[] {
  if (value === undefined || value === null) return [];
  if (!field.isList) return isPlainObject(value) ? [] : [value];
  if (!Array.isArray(value)) return [value];
  return value.filter((element) => !isPlainObject(element) && !(element === null && field.nullableElements));
}

function copiesOf(value: unknown): Array<Record<string, unknown>> {
  const entries = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return entries.filter((entry): entry is Record<string, unknown> => entry !== null && typeof entry === 'object' && !Array.isArray(entry));
}

function describeId(value: unknown): string {
  return `${bsonType(value) ?? typeof value} ${JSON.stringify(String(value)).slice(0, 40)}`;
}
