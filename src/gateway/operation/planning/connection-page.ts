import { sortPosition } from './in-memory-list';
import type { StoredDocument } from '../../documents/stored-document';
import type { SortKey } from '../../startup/storage-map/storage-map-types';
import type { GraphQLError } from 'graphql';
import { valueOutOfRange } from '../../errors/public-error-code';
import { quoteInput } from '../../errors/quote-input';
import { cursorCanHold, cursorList, decodeCursor, encodeCursor, outOfRangePosition, type DecodedCursor } from './cursor';
import { afterFilter } from './keyset-filter';
import { validateFirst, type PageRequest } from './page-request';

/** A connection's page arguments. */
export interface ConnectionArgs {
  readonly first?: number | null;
  /** A cursor this connection returned. */
  readonly after?: string | null;
}

/** One page of a connection: `size` items after the cursor, in `sort` order (which ends with `_id`). */
export interface ConnectionPage {
  /** `Type.field`, for errors. */
  readonly coordinate: string;
  readonly size: number;
  readonly sort: readonly SortKey[];
  /** The list identity its cursors carry. */
  readonly list: string;
  readonly after: DecodedCursor | undefined;
  /** The read: one item more than `size` answers hasNextPage; the cursor's position is a keyset condition. */
  readonly request: PageRequest;
}

/** The value of a connection field; docjoin's default resolvers read its properties. */
export interface ConnectionValue {
  /** An edge's cursor is the error its field answers when the item's sort values cannot be held (see cursorCanHold). */
  readonly edges: ReadonlyArray<{ readonly cursor: string | GraphQLError; readonly node: StoredDocument }>;
  readonly nodes: readonly StoredDocument[];
  readonly pageInfo: { readonly hasNextPage: boolean; readonly hasPreviousPage: boolean; readonly startCursor: string | GraphQLError | null; readonly endCursor: string | GraphQLError | null };
  /** Set when the selection asks for it. */
  readonly totalCount: number | undefined;
}

/**
 * Plans a connection page. `first` defaults to 20 and is at most 100 (a connection is always bounded);
 * `after` must be a cursor of this list in this order (BAD_USER_INPUT otherwise, before anything is sent).
 */
export function planConnectionPage(coordinate: string, sort: readonly SortKey[], args: ConnectionArgs, firstDefault?: number): ConnectionPage {
  const size = validateFirst(args.first, firstDefault)!;
  const list = cursorList(coordinate, sort);
  const after = args.after === undefined || args.after === null ? undefined : decodeCursor(args.after, list, sort, coordinate);
  const request: PageRequest = {
    limit: size + 1,
    filter: after && afterFilter(sort, after.values),
    anchor: undefined,
    sort,
    signature: `cursor:${args.after ?? ''}`,
  };
  return { coordinate, size, sort, list, after, request };
}

/**
 * The connection over the documents the page read (up to `size + 1`, in order). `parent` is the key
 * string of the relation's parent (its cursors are valid for it only); undefined on a root list.
 * hasPreviousPage is true when the page starts after a cursor: the cursor's item, at least, came before.
 */
export function toConnection(page: ConnectionPage, documents: readonly StoredDocument[], parent: string | undefined, totalCount: number | undefined): ConnectionValue {
  const nodes = documents.slice(0, page.size);
  const edges = nodes.map((node) => ({ cursor: cursorOf(page, parent, node), node }));
  return {
    edges,
    nodes,
    pageInfo: {
      hasNextPage: documents.length > page.size,
      hasPreviousPage: page.after !== undefined,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
    totalCount,
  };
}

function cursorOf(page: ConnectionPage, parent: string | undefined, node: StoredDocument): string | GraphQLError {
  const values = sortPosition(node, page.sort);
  if (cursorCanHold(values)) return encodeCursor({ list: page.list, parent }, values);
  return valueOutOfRange(`${page.coordinate}: no cursor can hold the position of the item with _id ${quoteInput(node._id)}: ${outOfRangePosition(page.sort)}`);
}
