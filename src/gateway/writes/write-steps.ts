import { equalityOperand, keyString } from '../documents/key-string';
import type { UpdateStatement } from '../request/mongo/funnel-writer';
import type { StoredDocument } from '../documents/stored-document';

/** One command of a write plan: every statement of an `update` step goes out in ONE update command. */
export type WriteStep =
  | { readonly kind: 'update'; readonly collection: string; readonly statements: readonly UpdateStatement[] }
  | { readonly kind: 'insert'; readonly collection: string; readonly documents: readonly StoredDocument[] }
  | { readonly kind: 'delete'; readonly collection: string; readonly filter: StoredDocument };

/** An update a planner wants, before statements are grouped into commands. */
export interface PlannedUpdate {
  readonly collection: string;
  readonly statement: UpdateStatement;
}

/** One update step per collection, in the order the collections first appear, statements in order. */
export function groupByCollection(planned: readonly PlannedUpdate[]): WriteStep[] {
  const steps = new Map<string, UpdateStatement[]>();
  for (const { collection, statement } of planned) {
    let statements = steps.get(collection);
    if (!statements) steps.set(collection, (statements = []));
    statements.push(statement);
  }
  return [...steps].map(([collection, statements]) => ({ kind: 'update', collection, statements }));
}

/** Each value once, in the order of its first appearance. */
export function distinct(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/**
 * Collects derived updates that target the same documents (same collection and filter) into one
 * statement: a bounded-array push and its parent's counter `$inc` share one filter, so they share one
 * statement, and the push's repeat guard protects the `$inc` too.
 */
export class UpdateMerger {
  readonly #entries = new Map<string, { collection: string; filter: StoredDocument; update: Record<string, Record<string, unknown>>; multi: boolean }>();

  add(collection: string, target: { path: string; value: unknown }, extraFilter: StoredDocument, operator: '$push' | '$inc' | '$pull' | '$set', path: string, argument: unknown, multi: boolean): void {
    const key = `${collection}|${target.path}|${keyString(target.value)}`;
    let entry = this.#entries.get(key);
    if (!entry) {
      entry = { collection, filter: { [target.path]: equalityOperand(target.value) }, update: {}, multi };
      this.#entries.set(key, entry);
    }
    Object.assign(entry.filter, extraFilter);
    (entry.update[operator] ??= {})[path] = argument;
  }

  planned(): PlannedUpdate[] {
    return [...this.#entries.values()].map(({ collection, filter, update, multi }) => ({ collection, statement: { filter, update, multi } }));
  }
}
