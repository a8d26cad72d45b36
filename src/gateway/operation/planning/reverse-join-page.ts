import type { StoredDocument } from '../../documents/stored-document';
import { listSort, type JoinShape, type RelationField, type SortKey } from '../../startup/storage-map/storage-map-types';
import { planConnectionPage, type ConnectionArgs, type ConnectionPage } from './connection-page';
import { conditionFilters, toMongoFilter } from './list-filter';
import { planPage, type PageArgs, type PageRequest } from './page-request';

/** What one parent's page of a reverse join asks for: the page, its order, its filters. */
export interface ReverseJoinPage {
  readonly page: PageRequest;
  /** The field's `orderBy` choice, else the join's `sort` (ends with `_id`). */
  readonly sort: readonly SortKey[];
  /** The filter arguments as one MongoDB condition; undefined when none is given. */
  readonly filter: StoredDocument | undefined;
  /** Tells pages apart in loader keys: same signature, same command (the resolver and the estimate agree on it). */
  readonly signature: string;
  /** A connection field's page (its `page` reads one item more, for hasNextPage); else undefined. */
  readonly connection: ConnectionPage | undefined;
}

/**
 * The page of a reverse join for these arguments. The resolver and the estimate both plan with it, so
 * loads that share a command in one share a group in the other. Throws BAD_USER_INPUT as planPage does.
 */
export function planReverseJoinPage(field: RelationField, shape: JoinShape, args: PageArgs & Readonly<Record<string, unknown>>): ReverseJoinPage {
  const sort = listSort({ sort: shape.sort, orderBy: field.listArguments.orderBy }, args) ?? shape.sort;
  const connection = field.connection ? planConnectionPage(field.coordinate, sort, args as ConnectionArgs, field.pageArguments.firstDefault) : undefined;
  const page = connection?.request ?? planPage(args, sort, { acceptsFirst: field.pageArguments.first, firstDefault: field.pageArguments.firstDefault, ...(field.isList ? { bound: shape.limit } : { cap: 1 }), ownerPath: shape.foreignField });
  const filters = conditionFilters(field.listArguments.conditions, args);
  const filter = filters.length === 0 ? undefined : toMongoFilter(filters);
  return { page, sort, filter, signature: filter === undefined ? page.signature : `${page.signature}|${JSON.stringify(filter)}`, connection };
}
