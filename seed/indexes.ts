import type { DemoCollectionName } from './demo-documents';

export interface DemoIndexSpec {
  readonly collection: DemoCollectionName;
  /** Field → 1 (ascending) or -1 (descending), in key order. */
  readonly key: Readonly<Record<string, 1 | -1>>;
  readonly unique?: true;
  /** Which read or write needs it. */
  readonly servesFor: string;
}

/**
 * One index per join key and lookup key of the demo schema (the `_id` index always exists), and the
 * unique keys writes rely on.
 * Names are left to MongoDB's default (`postId_1_createdAt_-1`).
 */
export const DEMO_INDEXES: readonly DemoIndexSpec[] = [
  { collection: 'comments', key: { postId: 1, createdAt: -1, _id: -1 }, servesFor: 'Post.comments, newest first (the sort with its _id tie-breaker)' },
  { collection: 'books', key: { publisherId: 1 }, servesFor: 'Publisher.books' },
  { collection: 'logMessages', key: { 'host.id': 1, time: -1, _id: -1 }, servesFor: 'Host.logs, newest first (the sort with its _id tie-breaker)' },
  { collection: 'tasks', key: { ownerId: 1 }, servesFor: 'tasks by owner (two-way reference checks)' },
  { collection: 'tasks', key: { due: 1 }, servesFor: 'Query.tasks(dueBefore)' },
  { collection: 'stocks', key: { symbol: 1 }, unique: true, servesFor: 'Query.stock(symbol)' },
  { collection: 'products', key: { catalogNumber: 1 }, unique: true, servesFor: 'Query.product(catalogNumber)' },
  { collection: 'hosts', key: { ipaddr: 1 }, unique: true, servesFor: 'Query.host(ipaddr)' },
  { collection: 'books', key: { 'authors.id': 1 }, servesFor: 'renameAuthor snapshot fan-out' },
  { collection: 'products', key: { 'parts.id': 1 }, servesFor: 'renamePart snapshot fan-out' },
  { collection: 'authors', key: { bookIds: 1 }, servesFor: 'authors of a book (reconcile of countOfBooks)' },
  { collection: 'books', key: { isbn: 1 }, unique: true, servesFor: 'publishBook: one book per ISBN (a duplicate is BAD_USER_INPUT on input.isbn)' },
];

/** MongoDB's default index name: `field_direction` pairs joined by `_`. */
export function defaultIndexName(key: Readonly<Record<string, 1 | -1>>): string {
  return Object.entries(key)
    .map(([field, direction]) => `${field}_${direction}`)
    .join('_');
}
