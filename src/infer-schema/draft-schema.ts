import type { Document } from 'mongodb';
import { parseSort, PROVIDED_SCALARS, quoteKey } from '../gateway';
import { compareCopies, isCopied, type FieldComparison } from './compare-copies';
import type { Reference } from './find-references';
import { camelCase, fieldNameOf, isGraphqlName, pascalCase, relationNameOf, RESERVED_TYPE_NAMES, singularOfName, typeNameOf, uniqueName } from './names';
import type { CollectionSample, DatabaseSample, IndexInfo } from './sample-database';
import { candidateKey, type SnapshotCandidate } from './snapshot-candidates';
import { kindOf, kindsOf, nullsOf, type ObjectShape, type ValueKind, type ValueShape } from './value-shape';

/** A field of the draft: printed as `name(args): type @directives`, below a `# guess:` line per guess. */
export interface DraftField {
  readonly kind: 'field';
  readonly name: string;
  /** `(first: Int = 20, after: ID)`, or empty. */
  readonly args: string;
  readonly type: string;
  readonly directives: readonly string[];
  readonly guesses: readonly string[];
}

/** A stored key the draft has no field for; printed as a `# guess: left out …` line saying why. */
export interface LeftOutField {
  readonly kind: 'left-out';
  readonly guess: string;
}

export type DraftEntry = DraftField | LeftOutField;

export interface DraftType {
  readonly name: string;
  /** Undefined for a type that only lives embedded. */
  readonly collection: string | undefined;
  readonly guesses: readonly string[];
  readonly entries: DraftEntry[];
}

export interface DraftCounts {
  collectionTypes: number;
  embeddedTypes: number;
  joins: number;
  snapshots: number;
  reverseJoins: number;
  guesses: number;
}

export interface DraftSchema {
  /** Comment lines above everything. */
  readonly header: readonly string[];
  readonly query: readonly DraftField[];
  /** Each collection's type, followed by the types embedded in it. */
  readonly types: readonly DraftType[];
  /** docjoin's scalars the fields use (DateTime, Decimal, Long), to declare above Query. */
  readonly scalars: readonly string[];
  readonly counts: DraftCounts;
}

export interface DraftInput {
  readonly sample: DatabaseSample;
  /** The `$sample` size asked for, for the header. */
  readonly sampleSize: number;
  readonly shapes: ReadonlyMap<string, ObjectShape>;
  readonly references: readonly Reference[];
  readonly candidates: readonly SnapshotCandidate[];
  /** Each candidate's source documents, by candidateKey(collection, path), then idKey of `_id`. */
  readonly sources: ReadonlyMap<string, ReadonlyMap<string, Document>>;
}

/**
 * Sampled evidence → a draft schema (pure). A type per collection and per kind of sub-document; a
 * reference (ObjectIds found in another collection's `_id`) is a `@join`; a sub-document holding one
 * reference beside fields equal to the referenced document's is a `@snapshot`; a reference that leads
 * an index of its collection adds a reverse join to the referenced type; each collection gets `@find`
 * by id and by each unique index, and a `@list`. Every inference that could be wrong carries its guess.
 */
export function draftSchema(input: DraftInput): DraftSchema {
  return new Drafter(input).draft();
}

const ID_KINDS: ReadonlySet<ValueKind> = new Set(['objectId', 'string', 'int', 'long']);
const TEXT_KINDS: ReadonlySet<ValueKind> = new Set(['string', 'int', 'long', 'double', 'boolean']);
const NUMBER_KINDS: ReadonlySet<ValueKind> = new Set(['int', 'long', 'double']);
const KIND_LABELS: Readonly<Record<ValueKind, string>> = {
  string: 'string',
  boolean: 'boolean',
  int: 'int',
  long: 'long',
  double: 'double',
  decimal: 'Decimal128',
  date: 'date',
  objectId: 'ObjectId',
  null: 'null',
  object: 'sub-document',
  array: 'array',
  unsupported: 'other BSON',
};

/** What a key's values type as, or why none does. */
type ScalarVerdict = { readonly type: string; readonly guess?: string } | { readonly reason: string };

/** A top-level field a `@find` argument can name: a stored scalar, or a reference (compared by its key). */
interface KeyField {
  readonly name: string;
  readonly type: string;
}

/** Whose fields are being drafted: a collection's type, or a type embedded in one. */
interface Owner {
  readonly collection: string;
  readonly typeName: string;
  readonly isCollection: boolean;
}

/** What comparing a candidate's sub-documents with their sources found. */
type CopyVerdict =
  | { readonly kind: 'snapshot'; readonly copied: readonly FieldComparison[]; readonly unserved: readonly string[] }
  | { readonly kind: 'key-only' }
  | { readonly kind: 'embedded'; readonly note: string };

class Drafter {
  readonly #input: DraftInput;
  readonly #typeNames = new Set(RESERVED_TYPE_NAMES);
  readonly #collectionTypes = new Map<string, string>();
  readonly #references = new Map<string, Reference>();
  readonly #candidates = new Map<string, SnapshotCandidate>();
  /** Per collection: the top-level keys its type has as stored scalar fields of the same name (what a snapshot can copy). */
  readonly #leafNames = new Map<string, ReadonlySet<string>>();
  readonly #fieldNames = new Map<string, FieldNames>();
  readonly #keyFields = new Map<string, Map<string, KeyField>>();
  readonly #collectionTypeEntries = new Map<string, DraftEntry[]>();
  readonly #types: DraftType[] = [];
  readonly #counts: DraftCounts = { collectionTypes: 0, embeddedTypes: 0, joins: 0, snapshots: 0, reverseJoins: 0, guesses: 0 };
  readonly #scalars = new Set<string>();

  constructor(input: DraftInput) {
    this.#input = input;
    for (const reference of input.references) this.#references.set(candidateKey(reference.collection, reference.path), reference);
    for (const candidate of input.candidates) this.#candidates.set(candidateKey(candidate.collection, candidate.path), candidate);
  }

  draft(): DraftSchema {
    const { collections } = this.#input.sample;
    for (const collection of collections) this.#collectionTypes.set(collection.name, uniqueName(typeNameOf(collection.name), this.#typeNames));
    for (const collection of collections) this.#leafNames.set(collection.name, this.#storedLeafKeys(collection.name));
    for (const collection of collections) this.#draftCollectionType(collection);
    this.#addReverseJoins();
    const query = this.#queryFields();
    this.#counts.collectionTypes = collections.length;
    this.#counts.guesses = this.#types.reduce((sum, type) => sum + type.guesses.length + type.entries.reduce((n, entry) => n + (entry.kind === 'field' ? entry.guesses.length : 1), 0), 0);
    return { header: this.#header(), query, types: this.#types, scalars: [...PROVIDED_SCALARS.keys()].filter((name) => this.#scalars.has(name)), counts: this.#counts };
  }

  #header(): string[] {
    const { sample, sampleSize } = this.#input;
    const lines = [
      `Drafted by \`docjoin init --from-mongo\` from database "${sample.databaseName}", sampling up to ${sampleSize} documents per collection.`,
      'Each "# guess:" says what was inferred and from what: check it, then delete the comment.',
    ];
    if (sample.skipped.length > 0) lines.push(`Not drafted (views, system collections and docjoin's own): ${sample.skipped.join(', ')}.`);
    return lines;
  }

  #draftCollectionType(collection: CollectionSample): void {
    const typeName = this.#collectionTypes.get(collection.name)!;
    const shape = this.#input.shapes.get(collection.name)!;
    const owner: Owner = { collection: collection.name, typeName, isCollection: true };
    const names = new FieldNames(new Set([...shape.fields.keys()].filter(isGraphqlName)));
    this.#fieldNames.set(typeName, names);
    this.#keyFields.set(collection.name, new Map());
    const entries: DraftEntry[] = [];
    const type: DraftType = { name: typeName, collection: collection.name, guesses: [this.#sampleGuess(collection)], entries };
    this.#types.push(type);
    this.#collectionTypeEntries.set(collection.name, entries);
    const id = shape.fields.get('_id');
    const idKinds = id ? kindsOf(id) : [];
    if (idKinds.every((kind) => ID_KINDS.has(kind)) && (id?.wideLongs ?? 0) === 0) {
      entries.push(field(names.claim('id'), 'ID!', [], []));
    } else {
      entries.push({ kind: 'left-out', guess: `left out "_id": it holds ${describeKinds(id!)}, which ID cannot serve; no id field and no @find by id` });
    }
    entries.push(...this.#draftFields(owner, names, shape, '', collection.documents));
  }

  #sampleGuess(collection: CollectionSample): string {
    const sampled = collection.documents.length;
    if (sampled === 0) return 'the collection is empty: only its id';
    const how = collection.method === '$sample' ? '$sample' : `the first ${sampled} in _id order: the server refused $sample (${collection.sampleFailure ?? 'no reason given'})`;
    return `fields of ${sampled} sampled of ~${collection.estimatedCount} documents (${how}); non-null (!) where all ${sampled} have the field`;
  }

  /** The fields of the objects `objects` (the sub-documents at `prefix`, or whole documents), merged in `shape`. */
  #draftFields(owner: Owner, names: FieldNames, shape: ObjectShape, prefix: string, objects: readonly Document[]): DraftEntry[] {
    const entries: DraftEntry[] = [];
    for (const [key, value] of shape.fields) {
      if (owner.isCollection && prefix === '' && key === '_id') continue;
      if (key === '' || key.includes('.') || key.startsWith('$')) {
        entries.push({ kind: 'left-out', guess: `left out ${JSON.stringify(key)}: a path cannot address an empty key, or one with "." or "$" in it` });
        continue;
      }
      const path = prefix === '' ? key : `${prefix}.${key}`;
      const entry = this.#draftKey(owner, names, { key, path, value, total: shape.count, objects });
      entries.push(entry);
      if (owner.isCollection && prefix === '' && entry.kind === 'field') this.#noteKeyField(owner.collection, key, entry, path);
    }
    return entries;
  }

  #draftKey(owner: Owner, names: FieldNames, at: { key: string; path: string; value: ValueShape; total: number; objects: readonly Document[] }): DraftEntry {
    const { key, path, value, total } = at;
    const kinds = kindsOf(value);
    const missing = total - (value.count - nullsOf(value));
    const nullable = missing > 0 ? [`nullable: missing or null in ${missing} of ${total} sampled`] : [];
    if (kinds.length === 0) return { kind: 'left-out', guess: `left out ${JSON.stringify(key)}: null wherever it is present (${value.count} of ${total} sampled)` };
    const reference = this.#references.get(candidateKey(owner.collection, path));
    if (reference) return this.#referenceField(names, key, reference);
    const [only] = kinds;
    if (kinds.length === 1 && only === 'object') {
      return this.#subDocumentField(owner, names, { ...at, shape: value.object!, entries: objectsAt(at.objects, key), list: false, nonNullElements: true, nonNull: missing === 0, nullable });
    }
    if (kinds.length === 1 && only === 'array') {
      const elements = value.elements;
      const elementKinds = elements ? kindsOf(elements) : [];
      if (!elements || elementKinds.length === 0) return { kind: 'left-out', guess: `left out ${JSON.stringify(key)}: an empty array in all ${value.count} sampled that have it, so its type is unknown` };
      const nonNullElements = nullsOf(elements) === 0;
      if (elementKinds.length === 1 && elementKinds[0] === 'object') {
        return this.#subDocumentField(owner, names, { ...at, shape: elements.object!, entries: objectsAt(at.objects, key), list: true, nonNullElements, nonNull: true, nullable: [] });
      }
      const scalar = this.#scalarOf(elements);
      if ('reason' in scalar) return { kind: 'left-out', guess: `left out ${JSON.stringify(key)}: its array elements hold ${scalar.reason}` };
      return this.#storedField(names, key, `[${scalar.type}${nonNullElements ? '!' : ''}]${missing === 0 ? '!' : ''}`, [...(scalar.guess ? [scalar.guess] : []), ...nullable]);
    }
    const scalar = this.#scalarOf(value);
    if ('reason' in scalar) return { kind: 'left-out', guess: `left out ${JSON.stringify(key)}: it holds ${scalar.reason}` };
    return this.#storedField(names, key, `${scalar.type}${missing === 0 ? '!' : ''}`, [...(scalar.guess ? [scalar.guess] : []), ...nullable]);
  }

  #storedField(names: FieldNames, key: string, type: string, guesses: string[]): DraftField {
    const name = names.own(key);
    const scalarName = type.replace(/[[\]!]/g, '');
    if (PROVIDED_SCALARS.has(scalarName)) this.#scalars.add(scalarName);
    if (name === key) return field(name, type, [], guesses);
    return field(name, type, [`@path(path: ${JSON.stringify(key)})`], [...guesses, `${JSON.stringify(key)} is not a GraphQL name (or is taken): read with @path`]);
  }

  #referenceField(names: FieldNames, key: string, reference: Reference): DraftField {
    const target = this.#collectionTypes.get(reference.target)!;
    const byKeyName = key === 'id' || key === '_id' ? camelCase(reference.many ? reference.target : singularOfName(reference.target)) || undefined : relationNameOf(key);
    const name = byKeyName === undefined ? names.own(key) : names.prefer(byKeyName, key);
    this.#counts.joins++;
    return field(name, reference.many ? `[${target}!]!` : target, [`@join(localField: ${JSON.stringify(key)})`], [
      `a reference: ObjectId values of ${reference.path} found in ${reference.target}._id (${reference.found} of ${reference.values.length} sampled)${name === key ? '' : `; the key stays at ${key}`}`,
      ...(reference.strings > 0 ? [stringKeys(reference)] : []),
    ]);
  }

  #subDocumentField(
    owner: Owner,
    names: FieldNames,
    at: { key: string; path: string; shape: ObjectShape; entries: readonly Document[]; list: boolean; nonNullElements: boolean; nonNull: boolean; nullable: string[] },
  ): DraftEntry {
    const { key, path, list } = at;
    const candidate = this.#candidates.get(candidateKey(owner.collection, path));
    const verdict = candidate ? this.#judgeCopies(candidate, at.entries) : undefined;
    if (candidate && verdict && verdict.kind !== 'embedded') {
      const { reference } = candidate;
      const target = this.#collectionTypes.get(reference.target)!;
      const name = names.own(key);
      const type = list ? `[${target}!]!` : target;
      const found = `${path}.${candidate.key} found in ${reference.target}._id (${reference.found} of ${reference.values.length} sampled)`;
      const join = `@join(localField: ${JSON.stringify(`${key}.${candidate.key}`)})`;
      if (verdict.kind === 'key-only') {
        this.#counts.joins++;
        return field(name, type, [join], [`a reference: the sub-documents hold only their key: ObjectId values of ${found}`]);
      }
      this.#counts.snapshots++;
      const fields = ['id', ...verdict.copied.map((copy) => copy.key)];
      const keyArgument = candidate.key === 'id' ? '' : `, key: ${JSON.stringify(candidate.key)}`;
      const copies = verdict.copied.map((copy) => `${copy.key} (${copy.equal} of ${copy.equal + copy.different})`).join(', ');
      const unserved = verdict.unserved.length === 0 ? '' : `; so ${agree(verdict.unserved.length, 'does', 'do')} ${verdict.unserved.join(', ')}, which its join serves`;
      return field(name, type, [`@snapshot(path: ${JSON.stringify(key)}, fields: [${fields.map((f) => JSON.stringify(f)).join(', ')}]${keyArgument})`, join, '@read(strategy: SNAPSHOT)'], [
        `a snapshot of ${reference.target}: ObjectId values of ${found}; ${copies} ${agree(verdict.copied.length, 'equals', 'equal')} the ${reference.target} document's${unserved}`,
      ]);
    }
    const typeName = this.#embeddedTypeName(key, owner.typeName, list);
    const type: DraftType = { name: typeName, collection: undefined, guesses: [], entries: [] };
    const position = this.#types.length;
    this.#types.push(type);
    const nested: Owner = { collection: owner.collection, typeName, isCollection: false };
    type.entries.push(...this.#draftFields(nested, new FieldNames(new Set([...at.shape.fields.keys()].filter(isGraphqlName))), at.shape, path, at.entries));
    if (!type.entries.some((entry) => entry.kind === 'field')) {
      this.#types.splice(position);
      this.#typeNames.delete(typeName);
      return { kind: 'left-out', guess: `left out ${JSON.stringify(key)}: none of its sub-documents' keys has a type the draft can give` };
    }
    this.#counts.embeddedTypes++;
    const name = names.own(key);
    const pathArgument = name === key ? '' : `(path: ${JSON.stringify(key)})`;
    const fieldType = list ? `[${typeName}${at.nonNullElements ? '!' : ''}]!` : `${typeName}${at.nonNull ? '!' : ''}`;
    const why = verdict?.kind === 'embedded' ? `; not a snapshot: ${verdict.note}` : '';
    return field(name, fieldType, [`@embedded${pathArgument}`], [`embedded: ${list ? 'an array of sub-documents' : 'a sub-document'} at ${path}${why}`, ...at.nullable]);
  }

  /**
   * Snapshot when every other key of the sub-documents equals the referenced document's key of the same
   * name. The copies the target's type has as scalar fields are the snapshot's `fields`; other copies
   * (a reference, a sub-document) stay in the data, and a selection of them joins.
   */
  #judgeCopies(candidate: SnapshotCandidate, entries: readonly Document[]): CopyVerdict {
    const { key, reference } = candidate;
    if (candidate.fields.length === 0) return { kind: 'key-only' };
    const keyless = entries.filter((entry) => kindOf(entry[key]) !== 'objectId').length;
    if (keyless > 0) return { kind: 'embedded', note: `${keyless} of ${entries.length} lack their key ${key}` };
    const sources = this.#input.sources.get(candidateKey(candidate.collection, candidate.path)) ?? new Map<string, Document>();
    const comparison = compareCopies(entries, key, sources, candidate.fields);
    const leaf = this.#leafNames.get(reference.target) ?? new Set<string>();
    const copies = comparison.fields.filter(isCopied);
    const served = copies.filter((copy) => leaf.has(copy.key));
    const own = comparison.fields.filter((compared) => !isCopied(compared)).map((compared) => compared.key);
    if (served.length > 0 && own.length === 0) return { kind: 'snapshot', copied: served, unserved: copies.filter((copy) => !served.includes(copy)).map((copy) => copy.key) };
    const of = `${reference.target} document's`;
    return {
      kind: 'embedded',
      note:
        copies.length === 0
          ? `${key} references ${reference.target}, but no other key equals the ${of}`
          : `${copies.map((copy) => copy.key).join(', ')} ${agree(copies.length, 'equals', 'equal')} the ${of}, but ${own.join(', ')} ${agree(own.length, 'does', 'do')} not`,
    };
  }

  #embeddedTypeName(key: string, ownerTypeName: string, list: boolean): string {
    const base = pascalCase(list ? singularOfName(key) : key) || 'Entry';
    return uniqueName(this.#typeNames.has(base) ? `${ownerTypeName}${base}` : base, this.#typeNames);
  }

  #scalarOf(value: ValueShape): ScalarVerdict {
    const kinds = kindsOf(value);
    const held = describeKinds(value);
    if (kinds.includes('unsupported')) return { reason: `${[...value.unsupported].join(', ')}, which no built-in scalar serves; declare a scalar with a resolver for it` };
    if (kinds.includes('object') || kinds.includes('array')) return { reason: `${held}: no one type fits` };
    if (kinds.length === 1 && kinds[0] === 'string') return { type: 'String' };
    if (kinds.length === 1 && kinds[0] === 'boolean') return { type: 'Boolean' };
    if (kinds.length === 1 && kinds[0] === 'date') return { type: 'DateTime' };
    if (kinds.length === 1 && kinds[0] === 'objectId') return { type: 'ID', guess: 'ObjectIds not (mostly) found as the _id of any collection: not a reference' };
    if (kinds.length === 1 && kinds[0] === 'decimal') return { type: 'Decimal' };
    if (kinds.every((kind) => NUMBER_KINDS.has(kind))) {
      if (kinds.includes('double')) {
        return value.wideLongs > 0 ? { type: 'Float', guess: `holds ${held}, with 64-bit integers beyond Int's 32 bits (${value.wideLongs} sampled): Float, exact up to 2^53` } : { type: 'Float' };
      }
      if (value.wideLongs > 0) return { type: 'Long', guess: `64-bit integers beyond Int's 32 bits (${value.wideLongs} sampled): Long, every digit kept (a string in JSON)` };
      return { type: 'Int' };
    }
    if (kinds.every((kind) => kind === 'decimal' || NUMBER_KINDS.has(kind))) return { type: 'Decimal', guess: `holds ${held}: Decimal serves them all exactly (a string in JSON); store one kind` };
    if (kinds.every((kind) => kind === 'objectId' || kind === 'string')) return { type: 'ID', guess: `holds ${held}: ID reads both, but filters, access rules and generated writes use ObjectIds, so they miss the strings; store one kind` };
    if (kinds.every((kind) => TEXT_KINDS.has(kind))) return { type: 'String', guess: `holds ${held}: String serves them all` };
    return { reason: `${held}: no one type fits; pick one` };
  }

  /** The top-level keys a collection's type will have as stored scalar (or scalar list) fields named like the key. */
  #storedLeafKeys(collection: string): ReadonlySet<string> {
    const keys = new Set<string>();
    for (const [key, value] of this.#input.shapes.get(collection)!.fields) {
      if (key === '_id' || key === 'id' || !isGraphqlName(key) || this.#references.has(candidateKey(collection, key))) continue;
      const kinds = kindsOf(value);
      const scalarPart = kinds.length === 1 && kinds[0] === 'array' ? value.elements : value;
      if (scalarPart && kindsOf(scalarPart).length > 0 && !('reason' in this.#scalarOf(scalarPart))) keys.add(key);
    }
    return keys;
  }

  #noteKeyField(collection: string, key: string, entry: DraftField, path: string): void {
    const isReference = entry.directives.some((directive) => directive.startsWith('@join'));
    if (entry.type.startsWith('[') || entry.directives.some((directive) => directive.startsWith('@embedded') || directive.startsWith('@snapshot'))) return;
    if (isReference) {
      if (this.#references.get(candidateKey(collection, path))) this.#keyFields.get(collection)!.set(key, { name: entry.name, type: 'ID' });
      return;
    }
    this.#keyFields.get(collection)!.set(key, { name: entry.name, type: entry.type.replace(/!$/, '') });
  }

  /**
   * A reference that leads an index of its collection (not through an array) is a cheap way back: the
   * referenced type gets the list of documents pointing at it, in the order the index's next keys give.
   */
  #addReverseJoins(): void {
    const samples = new Map(this.#input.sample.collections.map((collection) => [collection.name, collection]));
    const joins: Array<{ reference: Reference; index: IndexInfo }> = [];
    for (const reference of this.#input.references) {
      if (reference.many || reference.crossesArray) continue;
      const leading = samples.get(reference.collection)!.indexes.filter((index) => index.keys[0]?.[0] === reference.path);
      const index = leading.reduce<IndexInfo | undefined>((best, candidate) => (best === undefined || orderKeys(candidate).length > orderKeys(best).length ? candidate : best), undefined);
      if (index) joins.push({ reference, index });
    }
    for (const { reference, index } of joins) {
      const sourceType = this.#collectionTypes.get(reference.collection)!;
      const targetType = this.#collectionTypes.get(reference.target)!;
      const unique = index.unique && !index.partial && index.keys.length === 1;
      const siblings = joins.filter((other) => other.reference.collection === reference.collection && other.reference.target === reference.target).length;
      const key = reference.path.slice(reference.path.lastIndexOf('.') + 1);
      const base = unique ? camelCase(sourceType) : pluralFieldName(reference.collection);
      // Several from one collection, or a name the type has: say which reference each follows (`tasksByOwner`).
      const names = this.#fieldNames.get(targetType)!;
      const byKey = `${base}By${pascalCase(relationNameOf(key) ?? key)}`;
      const name = names.extra(siblings > 1 || names.has(base) ? byKey : base);
      const sort = orderKeys(index).join(',');
      const directive = `@join(localField: "_id", foreignField: ${JSON.stringify(reference.path)}${sort === '' || unique ? '' : `, sort: ${JSON.stringify(sort)}`})`;
      const guess = `a reverse join: ${reference.collection}.${reference.path} holds ${reference.target}._id values (${reference.found} of ${reference.values.length} sampled) and leads the index ${index.name}${unique ? ', a unique one: at most one each' : ''}${unique ? '' : pagesWantId(reference, index)}`;
      this.#collectionTypeEntries
        .get(reference.target)!
        .push(field(name, unique ? sourceType : `[${sourceType}!]!`, [directive], [guess], unique ? '' : '(first: Int = 20, after: ID)'));
      this.#counts.reverseJoins++;
    }
  }

  /** `@find` by id and by each unique index over top-level fields, and a `@list`, per collection. */
  #queryFields(): DraftField[] {
    const taken = new Set<string>();
    const fields: DraftField[] = [];
    for (const collection of this.#input.sample.collections) {
      const typeName = this.#collectionTypes.get(collection.name)!;
      const entries = this.#collectionTypeEntries.get(collection.name)!;
      const singular = camelCase(singularOfName(collection.name)) || camelCase(typeName);
      if (entries.some((entry) => entry.kind === 'field' && entry.name === 'id' && entry.type === 'ID!')) {
        fields.push(field(uniqueName(singular, taken), typeName, ['@find'], [], '(id: ID!)'));
      }
      const keyFields = this.#keyFields.get(collection.name)!;
      for (const index of collection.indexes) {
        if (!index.unique || index.partial || index.name === '_id_' || index.keys.some(([path]) => path === '_id')) continue;
        const keys = index.keys.map(([path]) => keyFields.get(path));
        if (keys.length === 0 || keys.some((key) => key === undefined)) continue;
        const args = keys as KeyField[];
        const name = uniqueName(`${singular}By${args.map((arg) => pascalCase(arg.name)).join('And')}`, taken);
        fields.push(field(name, typeName, ['@find'], [], `(${args.map((arg) => `${arg.name}: ${arg.type}!`).join(', ')})`));
      }
      fields.push(field(uniqueName(pluralFieldName(collection.name), taken), `[${typeName}!]!`, ['@list'], [], '(first: Int = 20, after: ID)'));
    }
    return fields;
  }
}

/**
 * A type's field names: keys that are GraphQL names keep theirs (`reserved`); a relation that replaces
 * its key, a sanitized key and a reverse join take a free one.
 */
class FieldNames {
  readonly #reserved: ReadonlySet<string>;
  readonly #used = new Set<string>();

  constructor(reserved: ReadonlySet<string>) {
    this.#reserved = reserved;
  }

  /** `name`, taken whatever the keys are (the collection type's `id`). */
  claim(name: string): string {
    this.#used.add(name);
    return name;
  }

  /** The key's own name: itself when it is a GraphQL name not yet used, else a sanitized, numbered one. */
  own(key: string): string {
    if (isGraphqlName(key) && !this.#used.has(key)) return this.claim(key);
    return this.extra(fieldNameOf(key));
  }

  /** `name` when no key of the type is called that and it is free, else the key's own name. */
  prefer(name: string, key: string): string {
    return this.#reserved.has(name) || this.#used.has(name) ? this.own(key) : this.claim(name);
  }

  has(name: string): boolean {
    return this.#reserved.has(name) || this.#used.has(name);
  }

  /** `name`, or `name2`, … : the first that neither a key nor a field has. */
  extra(name: string): string {
    let candidate = name;
    for (let n = 2; this.#reserved.has(candidate) || this.#used.has(candidate); n++) candidate = `${name}${n}`;
    return this.claim(candidate);
  }
}

function field(name: string, type: string, directives: readonly string[], guesses: readonly string[], args = ''): DraftField {
  return { kind: 'field', name, args, type, directives, guesses };
}

/** The sub-documents under `key` of each object: the value itself, or the objects of an array. */
function objectsAt(objects: readonly Document[], key: string): Document[] {
  const found: Document[] = [];
  for (const object of objects) {
    const value = object[key];
    for (const item of Array.isArray(value) ? value : [value]) if (kindOf(item) === 'object') found.push(item as Document);
  }
  return found;
}

/**
 * Advice for a reverse join whose index orders its children without `_id`: docjoin breaks ties by
 * `_id`, so its pages want that index with `_id` after the order (the startup check warns until then).
 */
function pagesWantId(reference: Reference, index: IndexInfo): string {
  const order = orderKeys(index);
  const last = order.at(-1);
  if (last === undefined || order.some((key) => key === '_id' || key === '-_id')) return '';
  const keys: Array<readonly [string, 1 | -1]> = [[reference.path, 1], ...order.map((key): readonly [string, 1 | -1] => (key.startsWith('-') ? [key.slice(1), -1] : [key, 1])), ['_id', last.startsWith('-') ? -1 : 1]];
  return `; its pages break ties by _id, so create db.${reference.collection}.createIndex({ ${keys.map(([path, direction]) => `${quoteKey(path)}: ${direction}`).join(', ')} })`;
}

/** The sort the index keeps after its first key, as `@join(sort:)` parts: keys of direction 1 or -1, while `@join(sort:)` can name them. */
function orderKeys(index: IndexInfo): string[] {
  const parts: string[] = [];
  for (const [path, direction] of index.keys.slice(1)) {
    const sign = Number(direction);
    if ((sign !== 1 && sign !== -1) || typeof parseSort(path) === 'string') break;
    parts.push(sign === -1 ? `-${path}` : path);
  }
  return parts;
}

/** A collection's list field: its name in camel case, unless that is its singular too (`inventory` → `inventoryList`). */
function pluralFieldName(collection: string): string {
  const plural = camelCase(collection);
  const singular = camelCase(singularOfName(collection));
  return plural === singular || plural === '' ? `${singular || 'document'}List` : plural;
}

/** The verb for one subject or several. */
function agree(count: number, one: string, several: string): string {
  return count === 1 ? one : several;
}

/** The guess naming the keys a reference holds as strings: its join, which looks up ObjectIds, finds nothing for them. */
function stringKeys(reference: Reference): string {
  const path = JSON.stringify(reference.path);
  const fix =
    reference.many || reference.crossesArray
      ? 'store them as ObjectIds'
      : `convert them: db.${reference.collection}.updateMany({ ${path}: { $type: "string" } }, [{ $set: { ${path}: { $toObjectId: ${JSON.stringify(`$${reference.path}`)} } } }])`;
  return `${reference.strings} sampled value(s) of ${reference.path} are strings, not ObjectIds: the join finds nothing for them; ${fix}`;
}

function describeKinds(value: ValueShape): string {
  return kindsOf(value)
    .map((kind) => `${KIND_LABELS[kind]} (${value.kinds.get(kind)})`)
    .join(', ');
}
