/**
 * The storage map: for every `Type.field` of the SDL, where its data lives and which shapes can read it.
 * Built once at startup from the directives (build-storage-map.ts), then only read. Plain data, no functions.
 */

/**
 * How a relation is read. `lookup` reads a `@join` inside its parent's own command (`$lookup`): it needs
 * no shape of its own, so every join that is not a connection can be read that way.
 */
export type ReadStrategy = 'embedded' | 'join' | 'snapshot' | 'lookup';
export const READ_STRATEGIES: readonly ReadStrategy[] = ['embedded', 'join', 'snapshot', 'lookup'];

export type SortDirection = 1 | -1;
export interface SortKey {
  /** A stored document path (dot notation). */
  readonly path: string;
  readonly direction: SortDirection;
}

/** The related data sits inside the parent document at `path`. */
export interface EmbeddedShape {
  readonly kind: 'embedded';
  readonly path: string;
}

/**
 * The related documents live in `collection`. `byKey`: the parent holds the target's key(s) (forward join,
 * `foreignField` is `_id` or another unique key). `byReference`: many targets point at the parent (reverse join).
 */
export interface JoinShape {
  readonly kind: 'join';
  readonly collection: string;
  readonly targetType: string;
  readonly localField: string;
  readonly foreignField: string;
  readonly direction: 'byKey' | 'byReference';
  /** Always ends with `_id` so that pages are stable; empty for `byKey` joins without `sort`. */
  readonly sort: readonly SortKey[];
  readonly limit: number | undefined;
}

/** A denormalized copy of some target fields, kept in the parent at `path`. */
export interface SnapshotShape {
  readonly kind: 'snapshot';
  readonly path: string;
  /** GraphQL field names of the target type present in the copy. */
  readonly fields: readonly string[];
  /** The copy's field holding the target's `_id`. */
  readonly key: string;
  /** The join that serves selections outside `fields` (required). */
  readonly fallback: JoinShape;
}

export type Shape = EmbeddedShape | JoinShape | SnapshotShape;

/** Page arguments a relation field accepts; only shapes that can honour them may declare them. */
export interface PageArguments {
  readonly first: boolean;
  /** What `first` left out or null stands for (first-default.ts declaredFirst). */
  readonly firstDefault: number;
  readonly after: boolean;
  readonly before: boolean;
}

export interface RelationField {
  readonly kind: 'relation';
  readonly typeName: string;
  readonly fieldName: string;
  /** `Type.field`, the name used in errors, the overrides header and `extensions.cost.fields`. */
  readonly coordinate: string;
  readonly targetType: string;
  readonly isList: boolean;
  /** Declared non-null (`Customer!`, `[Author!]!`). */
  readonly nonNull: boolean;
  /** A list whose elements may be null (`[Line]`); absent otherwise. */
  readonly nullableElements?: true;
  readonly shapes: Readonly<Partial<{ embedded: EmbeddedShape; join: JoinShape; snapshot: SnapshotShape }>>;
  readonly defaultStrategy: ReadStrategy;
  readonly pageArguments: PageArguments;
  /** Filters on the target's fields and `orderBy` (list fields). */
  readonly listArguments: ListArguments;
  /** Set when the field returns a Relay connection of `targetType` (a reverse join, paged by cursor). */
  readonly connection: ConnectionType | undefined;
}

/**
 * A Relay connection type (connection-type.ts): `edges { cursor node }`, `pageInfo`, and optionally
 * `totalCount` and `nodes`. A list declared with one pages by opaque keyset cursors.
 */
export interface ConnectionType {
  readonly typeName: string;
  readonly edgeType: string;
  /** The listed `@collection` type. */
  readonly nodeType: string;
  readonly pageInfoType: string;
  readonly totalCount: boolean;
}

/** A list field's arguments that are not paging: filters, and the choice of order. */
export interface ListArguments {
  readonly conditions: readonly RootCondition[];
  readonly orderBy: ListOrder | undefined;
}

export const NO_LIST_ARGUMENTS: ListArguments = Object.freeze({ conditions: Object.freeze([]), orderBy: undefined });

/** A field read straight from the parent document (scalar, enum, or a plain embedded value). */
export interface StoredField {
  readonly kind: 'stored';
  readonly typeName: string;
  readonly fieldName: string;
  readonly coordinate: string;
  /** Stored path; `id: ID!` on a collection type reads `_id`. */
  readonly path: string;
  readonly isId: boolean;
  /** The GraphQL type it is read as: the named type (`Int`, an enum), list and non-null wrappers. */
  readonly valueType: { readonly name: string; readonly isEnum: boolean; readonly isList: boolean; readonly nonNull: boolean; /** Lists nested in lists (`[[Int]]`: 2); absent for 0 or 1. */ readonly listDepth?: number };
}

export type FieldStorage = RelationField | StoredField;

export interface TypeStorage {
  readonly typeName: string;
  /** The collection holding documents of this type, if any. */
  readonly collection: string | undefined;
  readonly fields: ReadonlyMap<string, FieldStorage>;
}

/** How a root filter argument compares the stored value with the argument (`@filter(op:)`). */
export type FilterOp = 'EQ' | 'NE' | 'LT' | 'LTE' | 'GT' | 'GTE' | 'IN' | 'PREFIX';

/** One argument of a generated root field that becomes a condition on a stored path. */
export interface RootCondition {
  readonly argumentName: string;
  readonly path: string;
  readonly op: FilterOp;
  /** The argument is an `ID` compared with an ObjectId (`_id`, or an `ID` field holding references). */
  readonly objectId: boolean;
}

/** `@find`: the one document whose fields equal the arguments (a unique key). */
export interface FindRootField {
  readonly kind: 'find';
  readonly coordinate: string;
  readonly fieldName: string;
  readonly targetType: string;
  readonly collection: string;
  readonly conditions: readonly RootCondition[];
}

/** `@list`: a page of documents in a declared order, filtered by its arguments. */
export interface ListRootField {
  readonly kind: 'list';
  readonly coordinate: string;
  readonly fieldName: string;
  readonly targetType: string;
  readonly collection: string;
  /** The order without `orderBy` (ends with `_id`). */
  readonly sort: readonly SortKey[];
  /** The `orderBy` argument and the order each of its enum values stands for. */
  readonly orderBy: ListOrder | undefined;
  readonly conditions: readonly RootCondition[];
  /** Set when the field returns a Relay connection of `targetType`. */
  readonly connection: ConnectionType | undefined;
  /** What `first` left out or null stands for (first-default.ts declaredFirst). */
  readonly firstDefault: number;
}

/** An `orderBy` argument: the order each of its enum values stands for (each ends with `_id`). */
export interface ListOrder {
  readonly argumentName: string;
  readonly sorts: ReadonlyMap<string, readonly SortKey[]>;
}

/** A Query field docjoin resolves itself. */
export type RootField = FindRootField | ListRootField;

/** A stored field of the target an aggregate computes figures over. */
export interface AggregateFigure {
  readonly fieldName: string;
  readonly path: string;
  /** Int, Float, Long or Decimal: summed and averaged as well as ordered (a DateTime is only ordered: min, max). */
  readonly numeric: boolean;
  /** Its GraphQL scalar: a Long's or a Decimal's figures keep MongoDB's exact values (EXACT_SCALARS). */
  readonly scalar: string;
}

/** A stored field or reference key of the target an aggregate groups by. */
export interface AggregateKey {
  readonly fieldName: string;
  /** Its `groupBy(by:)` enum value (`PLACED_AT`). */
  readonly value: string;
  /** The stored path: the field's own, or the key a reference keeps (`categoryId`, `customer.id`). */
  readonly path: string;
  /** For a reference: the type whose ids the key holds (a group's key shows them). */
  readonly references: string | undefined;
  /** The key's GraphQL type in the group's key (`ID` for a reference): a Long's or a Decimal's is kept exact. */
  readonly scalar: string;
}

/**
 * An `@aggregate` field: figures over the filtered set of a list of the same parent (a root `@list`, or a
 * reverse join whose children hold the parent's key), computed by MongoDB in one aggregate per level.
 */
export interface AggregateField {
  readonly typeName: string;
  readonly fieldName: string;
  readonly coordinate: string;
  /** The list it aggregates (`Query.orders`, `Product.reviews`). */
  readonly list: string;
  readonly targetType: string;
  readonly collection: string;
  /** For a reverse join: the parent's key path and the children's path holding it; undefined for a root list. */
  readonly parentLink: { readonly localField: string; readonly foreignField: string } | undefined;
  /** The list's filter arguments this field takes. */
  readonly conditions: readonly RootCondition[];
  /** The parent's `@counter` of the list (`Product.reviewCount`), which answers an unfiltered count. */
  readonly counter: { readonly coordinate: string; readonly path: string } | undefined;
  /**
   * The parent's exact `@total`s of the list by the field they sum (`rating` → `Product.ratingTotal`),
   * which answer an unfiltered sum; and, with the counter, the mean when the field is non-null (`$avg`
   * leaves out children without a number, which the counter counts).
   */
  readonly totals: ReadonlyMap<string, { readonly coordinate: string; readonly path: string; readonly averages: boolean }>;
  /**
   * By field name. Every `@aggregate` over lists of one type shares its generated types, so each may
   * compute what any of them declares (each name is checked where it is declared).
   */
  readonly figures: ReadonlyMap<string, AggregateFigure>;
  /** By `groupBy(by:)` enum value (shared as `figures` is). */
  readonly keys: ReadonlyMap<string, AggregateKey>;
}

export interface StorageMap {
  readonly types: ReadonlyMap<string, TypeStorage>;
  /** `@aggregate` fields by coordinate (not in `types`: no document stores them). */
  readonly aggregates: ReadonlyMap<string, AggregateField>;
  /** Relation fields by coordinate: every field a strategy can read. */
  readonly relations: ReadonlyMap<string, RelationField>;
  /** Generated root fields (`@find`, `@list`) by coordinate. */
  readonly roots: ReadonlyMap<string, RootField>;
  /** Relay connection types by name (their edge and page-info types have no storage). */
  readonly connections: ReadonlyMap<string, ConnectionType>;
  /**
   * The fields (`Type.field`) whose storage declaration was refused, with a problem saying why: the
   * checks after it pass over what names them, rather than tell the SDL to name what is there.
   */
  readonly refused?: ReadonlySet<string>;
}

/**
 * Whether the stored field's value is its document's member of the same name, served as it is: no id
 * to turn into hex, no other path, no name graphql's default resolver would read from the prototype.
 */
export function readsUnderItsName(field: StoredField): boolean {
  return !field.isId && field.path === field.fieldName && !(field.fieldName in Object.prototype);
}

export function declaredStrategies(field: RelationField): ReadStrategy[] {
  return READ_STRATEGIES.filter((strategy) => (strategy === 'lookup' ? readsByLookup(field) : field.shapes[strategy] !== undefined));
}

/** Whether the field can be read with `$lookup` in its parent's command: a join that is not a connection (those page by cursor, and count). */
export function readsByLookup(field: Pick<RelationField, 'shapes' | 'connection'>): boolean {
  return field.shapes.join !== undefined && field.connection === undefined;
}

/** The order a list page is read in: the `orderBy` argument's, else the list's own; undefined for an unknown value. */
export function listSort(list: { readonly sort: readonly SortKey[] | undefined; readonly orderBy: ListOrder | undefined }, args: Readonly<Record<string, unknown>>): readonly SortKey[] | undefined {
  const chosen = list.orderBy && args[list.orderBy.argumentName];
  return chosen === undefined || chosen === null ? list.sort : list.orderBy!.sorts.get(String(chosen));
}
