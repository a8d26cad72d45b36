import { ObjectId } from 'bson';
import { holdsKeyAt } from '../../documents/key-string';
import { sortPosition, sortsAfter } from './in-memory-list';
import { badUserInput, valueOutOfRange } from '../../errors/public-error-code';
import { cursorCanHold, outOfRangePosition } from './cursor';
import type { StoredDocument } from '../../documents/stored-document';
import type { SortKey } from '../../startup/storage-map/storage-map-types';
import { allOf } from './list-filter';
import { afterFilter } from './keyset-filter';
import { DEFAULT_FIRST, MAX_FIRST } from '../../startup/storage-map/page-limits';
import { projectionOf, type Projection } from './projection';
import { quoteInput } from '../../errors/quote-input';

/** Page arguments as GraphQL passes them (after scalar parsing). */
export interface PageArgs {
  readonly first?: number | null;
  /** The id of the last item the client received. */
  readonly after?: string | null;
  readonly before?: Date | null;
}

/**
 * `after` on a list sorted by more than `_id`: the page starts after the anchor item's sort values, so
 * the anchor must be read (by `_id`, with `projection`) before the page's condition exists.
 */
export interface PageAnchor {
  readonly id: ObjectId;
  /** The anchor's paths the condition reads: the sort paths, and the owner path. */
  readonly projection: Projection;
  /** A relation's list: the anchor's path holding its parent's key, which must be this parent's. */
  readonly ownerPath: string | undefined;
  /**
   * Set on a list that ends after a number of items (a @join limit): no condition over the sort values
   * knows where that end is, so the page's read is the whole bounded list (`limit`), and the page is the
   * `take` items after the anchor in it (all of them when `take` is undefined); see pageAfterAnchor.
   */
  readonly inBound: { readonly take: number | undefined } | undefined;
}

export interface PageRequest {
  /** Items to return; undefined: no bound. */
  readonly limit: number | undefined;
  /** Condition selecting the page; undefined: from the start. With an anchor, only the part known without it (see anchoredFilter). */
  readonly filter: Record<string, unknown> | undefined;
  /** Set when the condition needs the anchor's sort values. */
  readonly anchor: PageAnchor | undefined;
  readonly sort: readonly SortKey[];
  /** Distinguishes page conditions in loader keys. */
  readonly signature: string;
}

/** Validates `first` (0..100; over the cap is an error, not a clamp). */
export function validateFirst(first: number | null | undefined, fallback: number | undefined = DEFAULT_FIRST): number | undefined {
  if (first === undefined || first === null) return fallback;
  if (!Number.isInteger(first) || first < 0 || first > MAX_FIRST) {
    throw badUserInput(`first must be between 0 and ${MAX_FIRST}, got ${first}`, { argumentName: 'first' });
  }
  return first;
}

/** `after` as the ObjectId of the last item received; anything else is BAD_USER_INPUT naming the value. */
export function parseAfter(after: string): ObjectId {
  if (!/^[0-9a-fA-F]{24}$/.test(after)) {
    throw badUserInput(`after must be the id of the last item you received, an ObjectId of 24 hexadecimal characters (a list of documents whose ids are no ObjectIds cannot be paged after: read it with first alone), got ${quoteInput(after)}`, {
      argumentName: 'after',
    });
  }
  return new ObjectId(after.toLowerCase());
}

/**
 * Turns page arguments into a limit and a condition over `sort` (which ends with `_id`). `cap` is a limit
 * regardless of `first` (a single-valued relation reads one item); `bound` is where the list ends (a
 * @join limit), so a page after an item is cut from the bounded list (PageAnchor.inBound). A root list ordered by `_id` pages
 * with `_id` alone; any other order needs the anchor's sort values (`anchor`, then anchoredFilter). A
 * relation's list (`ownerPath`: the children's path holding the parent's key) always reads its anchor,
 * to check that the item is this parent's: another parent's item is BAD_USER_INPUT, never a page of
 * this parent's list cut at a foreign position.
 */
export function planPage(
  args: PageArgs,
  sort: readonly SortKey[],
  options: { acceptsFirst: boolean; firstDefault?: number; cap?: number; bound?: number; ownerPath?: string },
): PageRequest {
  const first = options.acceptsFirst ? validateFirst(args.first, options.firstDefault) : undefined;
  const take = smallest(first, options.cap);
  const after = args.after === undefined || args.after === null ? undefined : parseAfter(args.after);
  const inBound = after !== undefined && options.bound !== undefined ? { take } : undefined;
  const limit = inBound ? options.bound : smallest(take, options.bound);
  const conditions: Array<Record<string, unknown>> = [];
  let anchor: PageAnchor | undefined;
  if (after !== undefined) {
    const primary = sort[0] ?? { path: '_id', direction: 1 };
    if (primary.path === '_id' && options.ownerPath === undefined && inBound === undefined) conditions.push(afterFilter([primary], [after]));
    else {
      const paths = [...sort.map((key) => key.path), ...(options.ownerPath === undefined ? [] : [options.ownerPath])];
      anchor = { id: after, projection: projectionOf(paths.map((path) => [path, 1] as const)), ownerPath: options.ownerPath, inBound };
    }
  }
  if (args.before !== undefined && args.before !== null) {
    const primary = sort[0];
    if (primary) conditions.push({ [primary.path]: { $lt: args.before } });
  }
  return { limit, filter: allOf(conditions), anchor, sort, signature: `${after?.toHexString() ?? ''}|${args.before?.toISOString() ?? ''}` };
}

/** The smaller of two limits, either of which may be absent. */
function smallest(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

/**
 * The page's whole condition once its anchor has been read: strictly after the anchor's sort values.
 * An anchor that does not exist is BAD_USER_INPUT (an empty page would look like the end of the list),
 * and so is one of another parent (`owner`: the list's coordinate and this parent's key).
 */
/** What a missing anchor may mean, and what the client can do. */
const ANCHOR_GONE = " (deleted since its page was read, or never in this list): a page starts after an item that still exists; start again from the first page, or page by a connection's cursor, which keeps its place without the item";

export function anchoredFilter(
  page: PageRequest,
  anchor: StoredDocument | null,
  typeName: string,
  owner?: { readonly coordinate: string; readonly key: unknown },
): Record<string, unknown> | undefined {
  if (page.anchor === undefined) return page.filter;
  const id = JSON.stringify(page.anchor.id.toHexString());
  if (anchor === null) throw badUserInput(`after: no ${typeName} with id ${id}${ANCHOR_GONE}`, { argumentName: 'after' });
  if (page.anchor.ownerPath !== undefined && owner !== undefined && !holdsKeyAt(anchor, page.anchor.ownerPath, owner.key)) {
    throw badUserInput(`after: ${typeName} ${id} is not in this parent's ${owner.coordinate}; pass the id of an item this list returned for this parent`, { argumentName: 'after' });
  }
  const position = sortPosition(anchor, page.sort);
  if (!cursorCanHold(position)) throw valueOutOfRange(`after: no page can start after ${typeName} ${id}: ${outOfRangePosition(page.sort)}`);
  if (page.anchor.inBound !== undefined) return page.filter;
  const keyset = afterFilter(page.sort, position);
  return allOf(page.filter === undefined ? [keyset] : [keyset, page.filter]);
}

/**
 * A page cut from a bounded list (PageAnchor.inBound): the items of `bounded` (the list up to its bound,
 * in order) that sort after the anchor. An anchor beyond the bound has nothing after it in the list.
 */
export function pageAfterAnchor(page: PageRequest, inBound: NonNullable<PageAnchor['inBound']>, anchor: StoredDocument, bounded: readonly StoredDocument[]): StoredDocument[] {
  const start = bounded.findIndex((document) => sortsAfter(document, anchor, page.sort));
  if (start === -1) return [];
  return bounded.slice(start, inBound.take === undefined ? undefined : start + inBound.take);
}
