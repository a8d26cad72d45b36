import type { GraphQLResolveInfo } from 'graphql';
import { ObjectId } from 'bson';
import { InvariantError } from '../errors/internal-errors';
import type { StoredDocument } from '../mongo/mongo-funnel';
import { planPage } from '../planning/page-request';
import { toFindProjection } from '../planning/projection';
import { parseSort, sortDocument } from '../storage-map/parse-sort';
import type { SortKey } from '../storage-map/storage-map-types';
import type { GatewayContext } from './request-context';

/** A value a root filter may compare against: typed, never an operator document. */
export type FilterValue = string | number | boolean | Date | ObjectId | null;
/** Equality, or a strict bound. Converted to `$lt`/`$gt` here, so callers never write MongoDB operators. */
export type FieldCondition = FilterValue | { readonly lt: FilterValue } | { readonly gt: FilterValue };
export type RootFilter = Readonly<Record<string, FieldCondition>>;

export interface FindManyOptions {
  readonly filter?: RootFilter;
  /** `@join(sort:)` syntax, e.g. `"due"` or `"-createdAt"`; `_id` is always the final tie-breaker. Default `_id`. */
  readonly sort?: string;
  readonly first?: number | null;
  /** The id of the last item the client received: the page holds the items after it. Needs a `sort` starting with `_id`. */
  readonly after?: string | null;
}

/**
 * The small API root resolvers use: it pushes the selection down as a projection, attributes the command
 * to `Query.field`, and primes the request's `_id` loader so later joins to these documents cost nothing.
 */
export class DocumentsApi {
  constructor(private readonly context: GatewayContext) {}

  /**
   * `TDocument` is the stored shape the caller expects for `typeName` (resolvers pass the codegen mapper,
   * e.g. `findOne<BookDocument>(info, 'Book', …)`). It is asserted, not checked: the documents come from
   * MongoDB projected to the selection, so only the paths the selection reads are guaranteed.
   */
  async findOne<TDocument = StoredDocument>(info: GraphQLResolveInfo, typeName: string, filter: RootFilter): Promise<TDocument | null> {
    const [document] = await this.#find<TDocument>(info, typeName, toMongoFilter(filter), { limit: 1 });
    return document ?? null;
  }

  async findMany<TDocument = StoredDocument>(info: GraphQLResolveInfo, typeName: string, options: FindManyOptions = {}): Promise<TDocument[]> {
    const sort = parseRootSort(options.sort ?? '_id');
    const page = planPage({ first: options.first, after: options.after }, sort, { acceptsFirst: true });
    if (page.limit === 0) return [];
    // A root list is one find (the cost estimate counts it so): paging another order would first read the anchor.
    if (page.anchor !== undefined) throw new InvariantError(`findMany(${typeName}): \`after\` pages lists ordered by _id first; sort "${options.sort}" would need an extra read`);
    const filter = toMongoFilter(options.filter ?? {});
    return this.#find<TDocument>(info, typeName, page.filter ? { $and: [filter, page.filter] } : filter, { limit: page.limit, sort: sortDocument(sort) });
  }

  async #find<TDocument>(info: GraphQLResolveInfo, typeName: string, filter: StoredDocument, options: { limit?: number; sort?: Record<string, 1 | -1> }): Promise<TDocument[]> {
    const collection = this.context.storageMap.types.get(typeName)?.collection;
    if (collection === undefined) throw new InvariantError(`${typeName} has no @collection; root resolvers can only read collection types`);
    const projection = this.context.projectionFor(info, typeName);
    const documents = await this.context.funnel.find(
      { ledger: this.context.ledger, fields: [`${info.parentType.name}.${info.fieldName}`] },
      collection,
      filter,
      { projection: toFindProjection(projection), ...options, ...(options.limit !== undefined && { batchSize: options.limit }) },
    );
    const loader = this.context.loaders.byKey(collection, '_id');
    for (const document of documents) loader.prime(document, projection);
    // The one place stored documents become the caller's mapper type (see findOne).
    return documents as unknown as TDocument[];
  }
}

function parseRootSort(sort: string): SortKey[] {
  const parsed = parseSort(sort);
  if (typeof parsed === 'string') throw new InvariantError(`root sort: ${parsed}`);
  return parsed;
}

/** Typed conditions to a MongoDB filter. Any other object value is a bug in a resolver, not user input. */
function toMongoFilter(filter: RootFilter): StoredDocument {
  const result: StoredDocument = {};
  for (const [path, condition] of Object.entries(filter)) {
    if (path.startsWith('$')) throw new InvariantError(`root filter path ${path} starts with $`);
    result[path] = toCondition(path, condition);
  }
  return result;
}

function toCondition(path: string, condition: FieldCondition): unknown {
  if (isFilterValue(condition)) return condition;
  if ('lt' in condition && isFilterValue(condition.lt)) return { $lt: condition.lt };
  if ('gt' in condition && isFilterValue(condition.gt)) return { $gt: condition.gt };
  throw new InvariantError(`root filter on ${path} has an unsupported condition`);
}

function isFilterValue(value: unknown): value is FilterValue {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value) || value instanceof Date || value instanceof ObjectId;
}
