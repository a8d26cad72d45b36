import { isKeyValue } from '../documents/key-string';
import { isAtOrUnder, readPath } from '../documents/read-path';
import { isPlainObject, type StoredDocument } from '../documents/stored-document';
import type { WriteModel } from '../startup/write-model/write-model-types';
import { existingChildrenReads } from './initial-derived-values';
import { lockIds } from './reference-locks';
import type { PlannedUpdate } from './write-steps';

/**
 * Where derived values are keyed by another field than `_id`, a new parent reads its children before
 * it is there, and a child written meanwhile moves no parent yet: in a transaction each would miss the
 * other. Both bump a lock of the key (`accounts#code`, "X"), the parent every slot, each child write
 * one, so MongoDB makes the second conflict and run again (reference-locks.ts).
 */
function keyedLockSpace(collection: string, parentKey: string): string {
  return `${collection}#${parentKey}`;
}

/** The parent keys other than `_id` by which `collection`'s derived values are found. */
function keyedParentKeys(model: WriteModel, collection: string): string[] {
  return [...new Set(existingChildrenReads(model, collection).map((read) => (read.kind === 'sums' ? read.parentKey : read.array.parentKey)))];
}

/** The paths of `collection`'s derived values found by `parentKey`. */
function pathsKeyedBy(model: WriteModel, collection: string, parentKey: string): string[] {
  return existingChildrenReads(model, collection).flatMap((read) => {
    if (read.kind === 'copies') return read.array.parentKey === parentKey ? [read.array.path] : [];
    return read.parentKey === parentKey ? [...read.counters, ...read.totals].map((rule) => rule.path) : [];
  });
}

/** Whether `update` writes at or inside one of `paths`. */
function writesAt(update: StoredDocument, paths: readonly string[]): boolean {
  return Object.values(update).some((changes) => isPlainObject(changes) && Object.keys(changes).some((written) => paths.some((path) => isAtOrUnder(written, path))));
}

/** The lock ids a new `collection` document bumps for the keys it holds that its derived values are found by. */
export function newParentLockIds(model: WriteModel, collection: string, document: StoredDocument): string[] {
  return keyedParentKeys(model, collection).flatMap((parentKey) => {
    const key = readPath(document, parentKey);
    return isKeyValue(key) ? lockIds(keyedLockSpace(collection, parentKey), key, 'changing') : [];
  });
}

/**
 * The lock ids the derived updates `planned` bump for the parents they find by another key than `_id`:
 * those picking the parent by that key and writing a value found by it (what the estimate counts, see
 * movesKeyedParents).
 */
export function keyedParentLockIds(model: WriteModel, planned: readonly PlannedUpdate[]): string[] {
  return planned.flatMap(({ collection, statement }) =>
    keyedParentKeys(model, collection).flatMap((parentKey) => {
      if (!Object.hasOwn(statement.filter, parentKey) || !writesAt(statement.update, pathsKeyedBy(model, collection, parentKey))) return [];
      const operand = statement.filter[parentKey];
      const key = isEqualityOperator(operand) ? operand.$eq : operand;
      return isKeyValue(key) ? lockIds(keyedLockSpace(collection, parentKey), key, 'pointing') : [];
    }),
  );
}

/** Whether derived updates reaching `collections` may move values keyed by another field than `_id` (each then bumps a lock). */
export function movesKeyedParents(model: WriteModel, collections: readonly string[]): boolean {
  return collections.some((collection) => keyedParentKeys(model, collection).length > 0);
}

function isEqualityOperator(operand: unknown): operand is { $eq: unknown } {
  return isPlainObject(operand) && Object.keys(operand).length === 1 && Object.hasOwn(operand, '$eq');
}
