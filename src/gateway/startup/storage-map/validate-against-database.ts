import type { GraphQLSchema } from 'graphql';
import { suggestionList } from 'graphql/jsutils/suggestionList';
import { DatabaseMismatchError } from '../../errors/internal-errors';
import { isAtOrUnder } from '../../documents/read-path';
import type { IndexDescription } from '../../documents/index-description';
import { versionBefore } from '../../documents/version-order';
import type { StoredDocument } from '../../documents/stored-document';
import { checkRelationListIndexes, checkRootIndexes, quoteKey } from './check-list-indexes';
import { namesRefusedField } from './refused-fields';
import { checkSampledDocuments, type CountedField, type DocumentSample } from './check-sampled-documents';
import { documentLocations } from './document-locations';
import { nearestStoredPath, PATH_SAMPLE } from './nearest-stored-path';
import { viewIdProblems, type ViewDefinition } from './check-view-ids';
import type { CollectionListing, DefaultCollation } from './collection-listing';
import type { ListOrder, RelationField, SortKey, StorageMap } from './storage-map-types';

/** What the check reads from the database (the mongo funnel provides it). */
export interface DatabaseCatalog {
  readonly databaseName: string;
  /** The database's collections and views, read once. */
  listCollections(): Promise<CollectionListing>;
  listIndexes(collection: string): Promise<IndexDescription[]>;
  /** Whether some document of `collection` has `path`; undefined when the collection is empty. */
  someDocumentHas(collection: string, path: string): Promise<boolean | undefined>;
  /** The first documents of `collection` in `_id` order, then others picked at random, as `sample` says. */
  sampleDocuments(collection: string, sample: DocumentSample): Promise<StoredDocument[]>;
  /** The server's databases, to name them when the configured one looks wrong (empty when not allowed). */
  listDatabaseNames(): Promise<string[]>;
  /** The server's version (buildInfo), e.g. `7.0.12`; undefined when it does not tell. */
  serverVersion(): Promise<string | undefined>;
}

/**
 * The database-level half of validation, run at server start: every collection the storage map names
 * exists, every reverse join's foreignField leads an index (else each parent would scan the collection),
 * every generated root field is served by an index (a `@find` by a unique one), every path a relation
 * reads is present in at least one document (a typo would otherwise read as "no data"), and each snapshot
 * copy in a sample of documents keeps its key. Throws DatabaseMismatchError listing every problem with
 * what fixes it; returns warnings (a sampled document whose stored field is missing or of another type,
 * a counter never computed, a sort no index serves, a copy some documents lack) that do not stop the
 * start, and tells `onIncompleteCopies` which copies those last are. `schema`, the executable
 * one, tells the sample check how enums and DateTime are stored (check-sampled-documents.ts).
 */
export async function validateAgainstDatabase(
  storageMap: StorageMap,
  catalog: DatabaseCatalog,
  options: {
    counters?: readonly CountedField[];
    schema?: GraphQLSchema;
    onIncompleteCopies?: (coordinates: readonly string[]) => void;
    /** Per Mutation field (`Mutation.field`), the collections its write unit writes: none may be a view. */
    writes?: ReadonlyMap<string, readonly string[]>;
    /** The derived values writes keep (copies, counters, totals), each with the collection it is derived from: none may be a view. */
    derived?: ReadonlyArray<DerivedValue>;
    /** Whether write units may run in transactions (`writes.transactions` is not `never`, and the server runs them); default true. */
    transactions?: boolean;
    /** The catalog's listCollections, when the caller has read it already. */
    listing?: CollectionListing;
  } = {},
): Promise<string[]> {
  const listing = options.listing ?? (await catalog.listCollections());
  const existing = listing.names;
  const views = listing.views;
  const wrongDatabase = await noneOfTheCollections(storageMap, existing, catalog);
  if (wrongDatabase) throw new DatabaseMismatchError([wrongDatabase]);
  const indexes = new IndexCache(catalog);
  const roots = await checkRootIndexes(storageMap, existing, (collection) => indexes.of(collection));
  const relationLists = await checkRelationListIndexes(storageMap, existing, (collection) => indexes.of(collection));
  const sampled = await checkSampledDocuments(storageMap, existing, catalog, options.counters ?? [], options.schema);
  const problems = [
    ...missingCollections(storageMap, existing, catalog.databaseName),
    ...(await unindexedReverseJoins(storageMap, existing, indexes)),
    ...roots.problems,
    ...(await absentPaths(storageMap, existing, catalog)),
    ...sampled.problems,
    ...featuresTheServerCannotRun(storageMap, await catalog.serverVersion()),
    ...collatedCollections(storageMap, listing.collations),
    ...(options.writes && options.writes.size > 0 ? viewsWritten(storageMap, options.writes, views) : []),
    ...(options.writes && options.transactions !== false ? untransactableWritten(options.writes, listing.untransactable) : []),
    ...(options.derived && options.derived.length > 0 ? derivedFromViews(options.derived, views) : []),
    ...viewIdProblems(storageMap, views, options.schema),
  ];
  if (problems.length > 0) throw new DatabaseMismatchError(problems);
  if (sampled.incompleteCopies.length > 0) options.onIncompleteCopies?.(sampled.incompleteCopies);
  // A field the schema's own check refused has its problem there: advice drawn from its refused declaration (a misspelt field to widen by) would contradict it.
  return [...roots.warnings, ...relationLists, ...sampled.warnings].filter((warning) => !namesRefusedField(warning, storageMap.refused));
}

/**
 * Collections whose default collation is not `simple`: MongoDB compares their strings by it (`'ABC'` equals
 * `'abc'` at strength 2) in every filter, join and sort, while docjoin matches keys to parents, merges pages,
 * keeps copied arrays in order and reads cursors byte by byte. Refused: the two disagree on which documents
 * a key, an access rule or a page takes.
 */
function collatedCollections(storageMap: StorageMap, collations: ReadonlyMap<string, DefaultCollation>): string[] {
  const typesOf = new Map<string, string[]>();
  for (const type of storageMap.types.values()) {
    if (type.collection === undefined || !collations.has(type.collection)) continue;
    typesOf.set(type.collection, [...(typesOf.get(type.collection) ?? []), type.typeName]);
  }
  return [...typesOf].map(([collection, types]) => {
    const { locale, strength } = collations.get(collection)!;
    const named = `locale "${locale}"${strength === undefined ? '' : `, strength ${strength}`}`;
    return `${types.join(', ')}: collection "${collection}" has a default collation (${named}), by which MongoDB compares its strings while docjoin matches keys, access rules and pages byte by byte; store it in a collection without a default collation (keep a case-insensitive key in a lowercased field of its own)`;
  });
}

/** A value writes keep in step with other documents: a counter, a total, a snapshot copy, a bounded or inverse array. */
export interface DerivedValue {
  readonly coordinate: string;
  /** `counter`, `total`, `snapshot`…, as the message names it. */
  readonly what: string;
  /** The collection its value comes from: the children counted or summed, the copied documents. */
  readonly from: string;
  /** The collection whose documents hold it. */
  readonly heldIn: string;
}

/**
 * Derived values whose sources are read through a view: docjoin writes no view, and a write to the
 * collection beneath (by another type) cannot tell which rows the view's pipeline shows, so nothing
 * would move the value in step.
 */
export function derivedFromViews(derived: ReadonlyArray<DerivedValue>, views: ReadonlyMap<string, ViewDefinition>): string[] {
  return derived.flatMap(({ coordinate, what, from }) => {
    const beneath = views.get(from)?.viewOn;
    if (beneath === undefined) return [];
    return [
      `${coordinate}: its ${what} is derived from ${from}, a MongoDB view on ${beneath}; docjoin writes no view, and a write to ${beneath} cannot tell which rows the view shows, so the ${what} would drift; derive it from a type stored in a collection, or remove it`,
    ];
  });
}

/**
 * What a change to a schema (advise, migrate) may not add: a derived value read from a view
 * (derivedFromViews, which the start refuses), or held in a view's rows, which filling it (migrate's
 * backfill) or keeping it (a write's fan-out) would write, and MongoDB refuses (the start refuses
 * those only once a mutation writes them: viewsWritten).
 */
export function derivedOverViews(derived: ReadonlyArray<DerivedValue>, views: ReadonlyMap<string, ViewDefinition>): string[] {
  const heldInViews = derived.flatMap(({ coordinate, what, heldIn }) => {
    const beneath = views.get(heldIn)?.viewOn;
    if (beneath === undefined) return [];
    return [`${coordinate}: its ${what} would be kept in ${heldIn}, a MongoDB view on ${beneath}, which MongoDB cannot write; keep it in a type stored in a collection, or leave it out`];
  });
  return [...derivedFromViews(derived, views), ...heldInViews];
}

/** Mutations whose write units would write a view, which MongoDB refuses (a view is read through its pipeline only). */
function viewsWritten(storageMap: StorageMap, writes: ReadonlyMap<string, readonly string[]>, views: ReadonlyMap<string, ViewDefinition>): string[] {
  const problems: string[] = [];
  for (const [coordinate, collections] of writes) {
    const view = collections.find((collection) => views.has(collection));
    if (view === undefined) continue;
    const types = [...storageMap.types.values()].filter((type) => type.collection === view).map((type) => type.typeName);
    problems.push(
      `${coordinate}: its write unit writes ${view} (${types.join(', ')}), a MongoDB view on ${views.get(view)!.viewOn}, which MongoDB cannot write; remove the mutation, or store ${types.join(' and ')} in a collection`,
    );
  }
  return problems;
}

/**
 * Mutations whose write unit writes a capped or time-series collection while units may run in
 * transactions: MongoDB refuses those writes inside one, so every such mutation would fail.
 */
function untransactableWritten(writes: ReadonlyMap<string, readonly string[]>, untransactable: ReadonlyMap<string, 'capped' | 'time-series'>): string[] {
  return [...writes].flatMap(([coordinate, collections]) => {
    const written = collections.find((collection) => untransactable.has(collection));
    if (written === undefined) return [];
    return [`${coordinate}: its write unit writes ${written}, a ${untransactable.get(written)} collection, which MongoDB does not write inside a transaction; set writes.transactions to "never" (each write then stands alone), or store it in an ordinary collection`];
  });
}

/**
 * What the schema declares that an older server refuses: fields read by LOOKUP by default before 5.0
 * (`$lookup` with both `localField` and a pipeline), and `@aggregate` fields offering `groupBy` before
 * 5.2 (each parent's groups are kept by `$topN`; aggregates over one type share their keys).
 */
function featuresTheServerCannotRun(storageMap: StorageMap, serverVersion: string | undefined): string[] {
  if (serverVersion === undefined) return [];
  const lookups = versionBefore(serverVersion, [5, 0])
    ? [...storageMap.relations.values()]
        .filter((field) => field.defaultStrategy === 'lookup')
        .map((field) => `${field.coordinate}: @read(strategy: LOOKUP) needs MongoDB 5.0 or later ($lookup with both localField and a pipeline), and this server is ${serverVersion}; read it with JOIN`)
    : [];
  const groupings = versionBefore(serverVersion, [5, 2])
    ? [...storageMap.aggregates.values()]
        .filter((aggregate) => aggregate.keys.size > 0)
        .map((aggregate) => `${aggregate.coordinate}: groupBy needs MongoDB 5.2 or later (each parent's groups are kept by $topN), and this server is ${serverVersion}; remove groupBy from the @aggregate directives over ${aggregate.targetType}, or upgrade MongoDB`)
    : [];
  return [...lookups, ...groupings];
}

/** Each collection's indexes, listed once per check. */
class IndexCache {
  readonly #indexes = new Map<string, Promise<IndexDescription[]>>();
  constructor(private readonly catalog: DatabaseCatalog) {}

  of(collection: string): Promise<IndexDescription[]> {
    let indexes = this.#indexes.get(collection);
    if (!indexes) this.#indexes.set(collection, (indexes = this.catalog.listIndexes(collection)));
    return indexes;
  }
}

/**
 * A database holding none of the schema's collections is most likely the wrong one (a typo in the name):
 * one problem naming it and the server's other databases, instead of one per missing collection.
 */
export async function noneOfTheCollections(storageMap: StorageMap, existing: ReadonlySet<string>, catalog: Pick<DatabaseCatalog, 'databaseName' | 'listDatabaseNames'>): Promise<string | undefined> {
  const named = [...new Set([...storageMap.types.values()].flatMap((type) => (type.collection === undefined ? [] : [type.collection])))];
  if (named.length === 0 || named.some((collection) => existing.has(collection))) return undefined;
  const others = (await catalog.listDatabaseNames()).filter((name) => name !== catalog.databaseName && !['admin', 'config', 'local'].includes(name));
  const hint = others.length > 0 ? ` This server has: ${others.join(', ')}.` : '';
  return `database "${catalog.databaseName}" has none of the schema's ${named.length} collections (${named.join(', ')}).${hint} Set the database (MONGODB_DB, --db, or mongodb.db in the config), or load data (docjoin seed)`;
}

function missingCollections(storageMap: StorageMap, existing: ReadonlySet<string>, databaseName: string): string[] {
  const problems: string[] = [];
  // A name close to one that exists is most likely a typo of it.
  const missing = (collection: string) => {
    const [nearest] = suggestionList(collection, [...existing]);
    const fix = nearest === undefined ? 'load data (docjoin seed) or fix the name' : `did you mean "${nearest}"? Fix the name, or load data (docjoin seed)`;
    return `does not exist in database "${databaseName}"; ${fix}`;
  };
  for (const type of storageMap.types.values()) {
    if (type.collection !== undefined && !existing.has(type.collection)) problems.push(`${type.typeName}: @collection(name: "${type.collection}") ${missing(type.collection)}`);
  }
  for (const field of storageMap.relations.values()) {
    const join = field.shapes.join;
    if (join && !existing.has(join.collection) && join.collection !== storageMap.types.get(join.targetType)?.collection) {
      problems.push(`${field.coordinate}: @join(collection: "${join.collection}") ${missing(join.collection)}`);
    }
  }
  return problems;
}

async function unindexedReverseJoins(storageMap: StorageMap, existing: ReadonlySet<string>, indexes: IndexCache): Promise<string[]> {
  const problems: string[] = [];
  for (const field of storageMap.relations.values()) {
    const join = field.shapes.join;
    if (!join || join.foreignField === '_id' || !existing.has(join.collection)) continue;
    const listed = await indexes.of(join.collection);
    if (!listed.some((index) => Object.keys(index.key)[0] === join.foreignField)) {
      const suggested = [`${quoteKey(join.foreignField)}: 1`, ...join.sort.map((key) => `${quoteKey(key.path)}: ${key.direction}`)];
      // A view has no indexes of its own: its reads use those of the collection it is a view on.
      const home = listed[0]?.collection ?? join.collection;
      const view = home === join.collection ? '' : ` (${join.collection} is a view on ${home})`;
      problems.push(`${field.coordinate}: no index on ${home}.${join.foreignField}${view}; create one with db.${home}.createIndex({ ${suggested.join(', ')} })`);
    }
  }
  return problems;
}

/** A stored path a relation reads, and the directive argument that names it. */
interface ReadPath {
  readonly collection: string;
  readonly path: string;
  readonly argument: string;
}

async function absentPaths(storageMap: StorageMap, existing: ReadonlySet<string>, catalog: DatabaseCatalog): Promise<string[]> {
  const problems: string[] = [];
  const asked = new Map<string, Promise<boolean | undefined>>();
  const someDocumentHas = (collection: string, path: string) => {
    const key = `${collection}\u0000${path}`;
    let has = asked.get(key);
    if (!has) asked.set(key, (has = catalog.someDocumentHas(collection, path)));
    return has;
  };
  const samples = new Map<string, Promise<StoredDocument[]>>();
  const sampleOf = (collection: string) => {
    let sample = samples.get(collection);
    if (!sample) samples.set(collection, (sample = catalog.sampleDocuments(collection, PATH_SAMPLE)));
    return sample;
  };
  const reads = [...[...storageMap.relations.values()].flatMap((field) => readPaths(storageMap, field).map((read) => ({ ...read, coordinate: field.coordinate }))), ...sortPaths(storageMap)];
  for (const read of reads) {
    if (!existing.has(read.collection)) continue;
    // An empty collection proves nothing either way.
    if ((await someDocumentHas(read.collection, read.path)) === false) {
      const nearest = nearestStoredPath(read.path, await sampleOf(read.collection));
      const fix = nearest === undefined ? 'fix the path or the data' : `did you mean "${nearest}"? Fix the path, or the data`;
      problems.push(`${read.coordinate}: no document in ${read.collection} has "${read.path}" (${read.argument}); ${fix}`);
    }
  }
  return problems;
}

/**
 * The paths lists are ordered by that no field of the listed type declares, in the collection each
 * orders: such a path no document has is a typo, which would order every page by `_id` alone,
 * silently. A declared field may be absent from every document so far (an optional `rating`): MongoDB
 * orders a missing value as null, so it is not asked about.
 */
function sortPaths(storageMap: StorageMap): Array<ReadPath & { readonly coordinate: string }> {
  const paths: Array<ReadPath & { readonly coordinate: string }> = [];
  const add = (coordinate: string, collection: string, typeName: string, keys: readonly SortKey[], argument: string) => {
    for (const key of keys) if (key.path !== '_id' && !declaresPath(storageMap, typeName, key.path)) paths.push({ coordinate, collection, path: key.path, argument: `${argument}, a path no field of ${typeName} declares` });
  };
  const addOrders = (coordinate: string, collection: string, typeName: string, orderBy: ListOrder | undefined) => {
    for (const [value, keys] of orderBy?.sorts ?? []) add(coordinate, collection, typeName, keys, `@sort(by:) of ${orderBy!.argumentName}: ${value}`);
  };
  for (const root of storageMap.roots.values()) {
    if (root.kind !== 'list') continue;
    add(root.coordinate, root.collection, root.targetType, root.sort, '@list sort');
    addOrders(root.coordinate, root.collection, root.targetType, root.orderBy);
  }
  for (const field of storageMap.relations.values()) {
    const join = field.shapes.join;
    if (!join) continue;
    add(field.coordinate, join.collection, field.targetType, join.sort, '@join sort');
    addOrders(field.coordinate, join.collection, field.targetType, field.listArguments.orderBy);
  }
  return paths;
}

/** Whether a field of `typeName` stores `path` (or what holds it: a stored object), through its embedded types and copies. */
function declaresPath(storageMap: StorageMap, typeName: string, path: string, depth = 0): boolean {
  const storage = storageMap.types.get(typeName);
  if (!storage || depth > MAX_DECLARED_DEPTH) return false;
  const within = (at: string) => isAtOrUnder(path, at);
  for (const field of storage.fields.values()) {
    if (field.kind === 'stored') {
      if (within(field.path)) return true;
      continue;
    }
    const { join, embedded, snapshot } = field.shapes;
    if (join?.direction === 'byKey' && within(join.localField)) return true;
    for (const held of [embedded?.path, snapshot?.path]) {
      if (held !== undefined && path.startsWith(`${held}.`) && declaresPath(storageMap, field.targetType, path.slice(held.length + 1), depth + 1)) return true;
    }
  }
  return false;
}

/** Embedded types inside embedded types this deep are not followed (a recursive type would never end). */
const MAX_DECLARED_DEPTH = 8;

function readPaths(storageMap: StorageMap, field: RelationField): ReadPath[] {
  const reads: ReadPath[] = [];
  const { embedded, join, snapshot } = field.shapes;
  for (const owner of documentLocations(storageMap, field.typeName)) {
    const at = (path: string) => (owner.prefix === '' ? path : `${owner.prefix}.${path}`);
    if (embedded) reads.push({ collection: owner.collection, path: at(embedded.path), argument: '@embedded path' });
    if (snapshot) reads.push({ collection: owner.collection, path: at(snapshot.path), argument: '@snapshot path' });
    if (join && join.localField !== '_id') reads.push({ collection: owner.collection, path: at(join.localField), argument: '@join localField' });
  }
  if (join && join.foreignField !== '_id') reads.push({ collection: join.collection, path: join.foreignField, argument: '@join foreignField' });
  return reads;
}
