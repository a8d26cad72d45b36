import { getNamedType, type GraphQLResolveInfo } from 'graphql';
import { InvariantError } from '../../errors/internal-errors';
import type { CommandScope, MongoFunnel } from '../mongo/mongo-funnel';
import type { ReadScope } from '../access/scope-read-command';
import { refuseHiddenFilter, type ComparisonRefusal } from '../access/comparison-refusal';
import type { StoredDocument } from '../../documents/stored-document';
import type { LoaderRegistry } from '../loaders/loader-registry';
import type { CostLedger } from '../cost/cost-ledger';
import type { OperationDeadline } from '../../operation/limits/operation-deadline';
import type { ConnectionSteps } from '../../operation/plan/selection-tree';
import { anchoredFilter, planPage } from '../../operation/planning/page-request';
import { planConnectionPage, toConnection, type ConnectionValue } from '../../operation/planning/connection-page';
import { mergeProjections, projectionOf, type Projection } from '../../operation/planning/projection';
import { readProjected } from '../loaders/projected-read';
import { parseSort, sortDocument, withIdTieBreaker } from '../../startup/storage-map/parse-sort';
import { badUserInput, forbidden } from '../../errors/public-error-code';
import { listOnPath } from '../../startup/storage-map/copy-paths';
import type { SortKey, StorageMap } from '../../startup/storage-map/storage-map-types';

export type { FieldCondition, FilterValue, RootFilter } from '../../operation/planning/list-filter';
import type { RootFilter } from '../../operation/planning/list-filter';
import { toMongoFilter } from '../../operation/planning/list-filter';

export interface FindManyOptions {
  /** Conditions every document must meet; a list when one path has several (a range: `{ gt }` and `{ lt }`). */
  readonly filter?: RootFilter | readonly RootFilter[];
  /** `@join(sort:)` syntax, e.g. `"due"` or `"-createdAt"`; `_id` is always the final tie-breaker. Default `_id`. */
  readonly sort?: string;
  readonly first?: number | null;
  /**
   * The id of the last item the client received: the page holds the items after it. With a sort that
   * does not start with `_id`, that item's sort values are read first (one more round trip).
   */
  readonly after?: string | null;
}

export interface FindConnectionOptions {
  readonly filter?: RootFilter | readonly RootFilter[];
  /** `@join(sort:)` syntax, or parsed; `_id` is always the final tie-breaker. Default `_id`. */
  readonly sort?: string | readonly SortKey[];
  /** Items per page: default 20, at most 100. */
  readonly first?: number | null;
  /** A cursor this field returned (an edge's cursor, or pageInfo.endCursor). */
  readonly after?: string | null;
}

/** What the API reads of its request's context (GatewayContext holds all of it). */
export interface DocumentsReads {
  readonly ledger: CostLedger;
  /** When the operation must stop (its time limit, or its client gone): the funnel checks it before each read. */
  readonly deadline: OperationDeadline;
  readonly loaders: LoaderRegistry;
  readonly funnel: MongoFunnel;
  readonly storageMap: StorageMap;
  /** The row filters of the viewer's access rules, added to every read (undefined without rules). */
  readonly readScope?: ReadScope;
  /**
   * Under access rules, what ordering or filtering `typeName` documents by `path` would show the viewer
   * that it may not see (a hidden field, a copy of rows it reads in part).
   */
  readonly comparisonRefusal?: ComparisonRefusal;
  /**
   * The projection the selection under the field `info` resolves needs on `typeName` documents, read
   * from the operation's plan (memoized). For a field returning a connection, the selection is that of
   * its nodes (`edges { node }`, `nodes`).
   */
  projectionFor(info: GraphQLResolveInfo, typeName: string): Projection;
  /** What the selection of a connection field asks for (memoized). */
  connectionSelection(info: GraphQLResolveInfo): ConnectionSteps;
}

/**
 * The small API root resolvers use: it pushes the selection down as a projection, attributes the command
 * to `Query.field`, and primes the request's `_id` loader so later joins to these documents cost nothing.
 */
export class DocumentsApi {
  constructor(private readonly context: DocumentsReads) {}

  #scope(info: GraphQLResolveInfo): CommandScope {
    const { ledger, deadline, readScope } = this.context;
    return { ledger, deadline, ...(readScope && { readScope }), fields: [`${info.parentType.name}.${info.fieldName}`] };
  }

  /**
   * `TDocument` is the stored shape the caller expects for `typeName` (resolvers pass the codegen mapper,
   * e.g. `findOne<BookDocument>(info, 'Book', …)`). It is asserted, not checked: the documents come from
   * MongoDB projected to the selection, so only the paths the selection reads are guaranteed.
   */
  async findOne<TDocument = StoredDocument>(info: GraphQLResolveInfo, typeName: string, filter: RootFilter | readonly RootFilter[]): Promise<TDocument | null> {
    const [document] = await this.#find<TDocument>(info, typeName, this.#filter(info, typeName, filter), { limit: 1 });
    return document ?? null;
  }

  async findMany<TDocument = StoredDocument>(info: GraphQLResolveInfo, typeName: string, options: FindManyOptions = {}): Promise<TDocument[]> {
    return this.findPage<TDocument>(info, typeName, { ...options, sort: parseRootSort(options.sort ?? '_id') });
  }

  /** findMany with the order already parsed (generated `@list` fields keep theirs parsed). */
  async findPage<TDocument = StoredDocument>(
    info: GraphQLResolveInfo,
    typeName: string,
    options: Omit<FindManyOptions, 'sort'> & { readonly sort: readonly SortKey[] },
  ): Promise<TDocument[]> {
    this.#refuseHiddenOrder(`${info.parentType.name}.${info.fieldName}`, typeName, options.sort);
    const filter = this.#filter(info, typeName, options.filter ?? {});
    const page = planPage({ first: options.first, after: options.after }, options.sort, { acceptsFirst: true });
    if (page.limit === 0) return [];
    let pageFilter = page.filter;
    if (page.anchor !== undefined) {
      const anchor = await this.context.loaders
        .byKey(this.#collectionOf(typeName), '_id')
        .load({ key: page.anchor.id, projection: page.anchor.projection, path: info.path, field: `${info.parentType.name}.${info.fieldName}` });
      pageFilter = anchoredFilter(page, anchor, typeName);
    }
    return this.#find<TDocument>(info, typeName, pageFilter ? { $and: [filter, pageFilter] } : filter, { limit: page.limit, ...(options.sort.length > 0 && { sort: sortDocument(options.sort) }) });
  }

  /**
   * A Relay connection page for a field returning a connection type (`edges { cursor node }`,
   * `pageInfo`, `totalCount`): ONE find of `first + 1` documents after the cursor (the extra one answers
   * hasNextPage), and, only when totalCount is selected, ONE count, sent at the same time. A cursor of
   * another field or another order is BAD_USER_INPUT.
   */
  async findConnection(info: GraphQLResolveInfo, typeName: string, options: FindConnectionOptions = {}): Promise<ConnectionValue> {
    const connection = this.context.storageMap.connections.get(getNamedType(info.returnType).name);
    const coordinate = `${info.parentType.name}.${info.fieldName}`;
    if (!connection) throw new InvariantError(`${coordinate}: findConnection answers a field that returns a connection type (edges, pageInfo); it returns ${String(info.returnType)}`);
    const sort = typeof options.sort === 'string' || options.sort === undefined ? parseRootSort(options.sort ?? '_id') : withIdTieBreaker(options.sort);
    this.#refuseHiddenOrder(coordinate, typeName, sort);
    // A cursor keeps one value per key (check-cursor-sorts.ts refuses such an order on generated fields at startup).
    const list = sort.map((key) => listOnPath(this.context.storageMap, typeName, key.path)).find((found) => found !== undefined);
    if (list) throw badUserInput(`${coordinate} cannot page by cursor in an order through the list ${list}: a document holds several values there; sort by a single-valued path`);
    const page = planConnectionPage(coordinate, sort, { first: options.first, after: options.after });
    const selection = this.context.connectionSelection(info);
    const filter = this.#filter(info, typeName, options.filter ?? {});
    const documents = selection.page
      ? this.#find<StoredDocument>(info, typeName, page.request.filter ? { $and: [filter, page.request.filter] } : filter, {
          limit: page.request.limit,
          sort: sortDocument(sort),
          // Cursors hold each item's sort values.
          projection: mergeProjections([this.context.projectionFor(info, typeName), projectionOf(sort.map((key) => [key.path, 1] as const))]),
        })
      : Promise.resolve([]);
    const totalCount = selection.totalCount ? this.#count(info, typeName, filter) : undefined;
    const [found, count] = await Promise.all([documents, totalCount]);
    return toConnection(page, found, undefined, count);
  }

  /** The resolver's filter for MongoDB; under access rules, one by what the viewer may not see is refused, as on generated lists. */
  #filter(info: GraphQLResolveInfo, typeName: string, filter: RootFilter | readonly RootFilter[]): StoredDocument {
    const mongoFilter = toMongoFilter(filter);
    refuseHiddenFilter(this.context.comparisonRefusal, `${info.parentType.name}.${info.fieldName}`, typeName, mongoFilter);
    return mongoFilter;
  }

  /** An order shows its values (a connection's cursors hold them): one by what the viewer may not see is refused, as on generated lists. */
  #refuseHiddenOrder(coordinate: string, typeName: string, sort: readonly SortKey[]): void {
    const { comparisonRefusal } = this.context;
    for (const key of comparisonRefusal ? sort : []) {
      const shown = comparisonRefusal!(typeName, key.path);
      if (shown) throw forbidden(`${coordinate} sorts by ${shown}; sort by a field the role reads`);
    }
  }

  async #count(info: GraphQLResolveInfo, typeName: string, filter: StoredDocument): Promise<number> {
    const [row] = await this.context.funnel.aggregate(this.#scope(info), this.#collectionOf(typeName), [
      { $match: filter },
      { $count: 'count' },
    ]);
    return row ? Number(row.count) : 0;
  }

  #collectionOf(typeName: string): string {
    const collection = this.context.storageMap.types.get(typeName)?.collection;
    if (collection === undefined) throw new InvariantError(`${typeName} has no @collection; root resolvers can only read collection types`);
    return collection;
  }

  async #find<TDocument>(
    info: GraphQLResolveInfo,
    typeName: string,
    filter: StoredDocument,
    options: { limit?: number; sort?: Record<string, 1 | -1>; projection?: Projection },
  ): Promise<TDocument[]> {
    const collection = this.#collectionOf(typeName);
    const { projection = this.context.projectionFor(info, typeName), ...findOptions } = options;
    const documents = await readProjected(this.context.funnel, this.#scope(info), collection, filter, projection, { ...findOptions, ...(findOptions.limit !== undefined && { batchSize: findOptions.limit }) });
    this.context.loaders.byKey(collection, '_id').prime(documents, projection, info.path);
    // The one place stored documents become the caller's mapper type (see findOne).
    return documents as unknown as TDocument[];
  }
}

/** A resolver's order: one its client wrote may be invalid (BAD_USER_INPUT naming it), never a 500. */
function parseRootSort(sort: string): SortKey[] {
  const parsed = parseSort(sort);
  if (typeof parsed === 'string') throw badUserInput(`invalid order: ${parsed}`);
  return parsed;
}
