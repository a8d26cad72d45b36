import type { Document } from 'bson';
import { applyUpdate, filterIdentifier, upsertSeed, type QueryScope } from '../../query';
import type { CollectionView } from '../../storage/collection-view';
import { documentKey } from '../../storage/document-key';
import { storableDocument } from '../../storage/stored-document';
import { CommandError } from '../../protocol/command-error';
import { sameBson } from './same-bson';

export interface UpdateSpec {
  readonly filter: Document;
  readonly update: Document | Document[];
  readonly arrayFilters?: Document[];
  /** The statement's collation and the command's `let` variables. */
  readonly scope?: QueryScope;
}

/**
 * Checks what MongoDB checks before matching any document: every `$[identifier]` in an update path
 * has an array filter (BadValue otherwise), so the error does not depend on whether documents match.
 */
export function assertArrayFilterIdentifiers(spec: UpdateSpec): void {
  if (Array.isArray(spec.update)) return;
  const declared = new Set((spec.arrayFilters ?? []).map(filterIdentifier));
  for (const [operator, fields] of Object.entries(spec.update)) {
    if (!operator.startsWith('$') || typeof fields !== 'object' || fields === null) continue;
    for (const path of Object.keys(fields as Document)) {
      for (const match of path.matchAll(/\$\[([^\]]+)\]/g)) {
        if (!declared.has(match[1]!)) {
          throw new CommandError(2, 'BadValue', `No array filter found for identifier '${match[1]}' in path '${path}'`);
        }
      }
    }
  }
}

/** The document to store after updating `doc`, or undefined when the update changes nothing (it then does not count in nModified). */
export function updatedDocument(doc: Document, spec: UpdateSpec): Document | undefined {
  const next = applyUpdate(doc, spec.update, { arrayFilters: spec.arrayFilters, filter: spec.filter, ...spec.scope });
  if (next._id === undefined) next._id = doc._id;
  else if (!sameBson({ _id: next._id }, { _id: doc._id })) {
    throw new CommandError(66, 'ImmutableField', `Performing an update on the path '_id' would modify the immutable field '_id'`);
  }
  return sameBson(doc, next) && !pushAlwaysModifies(spec.update) ? undefined : storableDocument(next);
}

/**
 * MongoDB's `$push` counts as a change whenever it pushes a value or sorts, even when `$slice` leaves
 * the array as it was (its PushNode reports a normal update then): nModified counts the document, and
 * in a transaction it is a write another transaction's write of the document conflicts with. A path
 * through a positional operator may reach no element, so it is left to the comparison.
 */
function pushAlwaysModifies(update: Document | Document[]): boolean {
  const push: unknown = Array.isArray(update) ? undefined : update.$push;
  if (typeof push !== 'object' || push === null) return false;
  return Object.entries(push as Document).some(([path, value]) => {
    if (path.includes('$')) return false;
    const modifiers = typeof value === 'object' && value !== null && !Array.isArray(value) && '$each' in value ? (value as { $each: unknown; $sort?: unknown }) : undefined;
    return modifiers === undefined || (Array.isArray(modifiers.$each) && modifiers.$each.length > 0) || modifiers.$sort !== undefined;
  });
}

/** The document an upsert inserts: the filter's equality fields, then the update with `$setOnInsert` applied. */
export function upsertedDocument(spec: UpdateSpec): Document {
  const next = applyUpdate(upsertSeed(spec.filter), spec.update, { arrayFilters: spec.arrayFilters, filter: spec.filter, isInsert: true, ...spec.scope });
  return storableDocument(next);
}

/**
 * Inserts the document an upsert creates and returns it, unless an open transaction holds its `_id`:
 * then waits for that transaction to end and returns undefined, and the caller runs its statement
 * again (the filter may now match what the transaction committed).
 */
export async function insertUpserted(view: CollectionView, spec: UpdateSpec): Promise<Document | undefined> {
  const inserted = upsertedDocument(spec);
  const blocker = view.writeBlocker(documentKey(inserted._id), inserted);
  if (blocker !== undefined) {
    await blocker;
    return undefined;
  }
  view.insert(inserted);
  return inserted;
}
