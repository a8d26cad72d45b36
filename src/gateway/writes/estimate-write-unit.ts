import { InvariantError } from '../errors/internal-errors';
import { boundedCopiesOf, fanOutCollections, hasFanOut, sourceStatementCount } from './fan-out-planner';
import { byKeyReferenceFields, collectionsDerivedFromInsert, keysSetBy, nestedReferences, nestedSnapshotLocations, provedByDerivedUpdate, uncheckedParentRelations } from './insert-planner';
import { boundedArraysOf, collectionsDerivedFromDelete, incomingReferences } from './delete-planner';
import { collectionsOfMoves, collectionsOfReferenceChange } from './reference-planner';
import { distinct } from './write-steps';
import { existingChildrenReads } from './initial-derived-values';
import { movesKeyedParents } from './keyed-parent-locks';
import { LOCK_COLLECTION } from '../documents/lock-collection';
import { lockedReferencesOf, storedPathsOf, type ReferenceLocks } from './reference-locks';
import type { WriteModel } from '../startup/write-model/write-model-types';
import type { WriteOperation, WritePlan } from './write-plan';

/**
 * The most one attempt of a write unit sends, from its plan and the write model: the same rules the
 * planners apply when it runs, without the values (a rule that might apply is counted).
 */
export interface WriteUnitEstimate {
  /** `reads + writes.length + (commit ? 1 : 0)`. */
  readonly roundTrips: number;
  /** Documents its reads can return, and one per derived update (which may return the document it bumps a counter of); what writes modify is `extensions.cost.writes`. */
  readonly documents: number;
  /** Checks before writing: existence reads, a source picked by another field than `_id`. */
  readonly reads: number;
  /** The collection of each write command, in order (a source update, then one command per collection it fans out to). */
  readonly writes: readonly string[];
  /** A commitTransaction (or, when the unit fails, an abortTransaction in its place). */
  readonly commit: boolean;
  /**
   * Reads `reads` leaves out because a transaction's derived update proves their targets exist: sent
   * after all where the server runs no transactions (the unit's command budget adds them there).
   */
  readonly provedReads: number;
}

/**
 * Bounds one attempt of `plan`. Per operation: requireOne reads one document; updateSource writes its
 * source (one command, the copies inside it folded in; when it moves a `@total`, a findAndModify returning
 * the document as it was, one per statement of the source update: sourceStatementCount), one updateMany per collection holding copies of the changed fields and
 * one update per collection of the totals it moves, after a read when it is picked by another field than
 * `_id` and has copies; insert reads each reference it holds but the preloaded ones (a list reference: up to its
 * `maxKeys` documents in one find; a preloaded one too where some role reads its target's collection in part:
 * a source read outside the unit is read again through the viewer's filter) and, with `transaction`, those its derived update proves
 * (provedByDerivedUpdate), and where its counters, totals or bounded arrays are keyed by another field than
 * `_id`, the children it may already have (one aggregate per child collection and key, one find per
 * array: existingChildrenReads); inserts, then updates each collection whose bounded arrays,
 * counters or inverse arrays it feeds; changeReference reads the document and its new target, sets the
 * truth and updates each collection of the inverse side, of the counters and totals keyed by it, and of
 * the bounded arrays holding whole copies of the document (the key in them changes too); requireMany reads up to `maxKeys` documents in
 * one find; delete reads the document, each place that could reference it and each bounded array it fed,
 * deletes it and updates each collection it contributed to. With `transaction`, one commit. Each derived
 * update of an insert, a delete or a reference change counts one document: the one it may return.
 * With `transaction` and `locks`, lock commands (reference-locks.ts): one for an insert whose
 * references lock or whose counters a snapshot copies; for an update or a re-point, one for the locks
 * it points at or guards and one for the copied counters it moves; for a delete, one each for the
 * deleted document, the children it refills bounded arrays with, and the copied counters it moves.
 *
 * One attempt: a transaction runs the unit again after a transient error (a write conflict); those
 * retries are not counted here but kept within the operation's round-trip limit at run time
 * (CostLedger.mayRetry), and reported in `extensions.cost.writes.attempts`.
 */
export interface WriteEstimateOptions {
  /** Count a commit (the unit runs in a transaction). */
  readonly transaction: boolean;
  /**
   * The collections some role reads only where its conditions hold: a reference into one is read
   * through the viewer's filter, never proved by the insert's derived update, so it counts a read.
   */
  readonly readInPart?: ReadonlySet<string>;
  /** The references a create rule presets from a claim (presetReferences): read even where the input names none. */
  readonly presetReferences?: ReadonlySet<string>;
  /** Which deletes and updates bump a lock (reference-locks.ts), from every plan of the gateway; without it, none do. */
  readonly locks?: ReferenceLocks;
}

export function estimateWriteUnit(model: WriteModel, plan: WritePlan, options: WriteEstimateOptions): WriteUnitEstimate {
  let reads = 0;
  let provedReads = 0;
  let documents = 0;
  const writes: string[] = [];
  const read = (count: number, found: number) => {
    reads += count;
    documents += found;
  };
  // A derived update that bumps a counter on a document the selection joins returns it (WriteUnit
  // `returning`): one document per derived update command.
  const returning = (collections: readonly string[]) => {
    documents += collections.length;
    return collections;
  };
  // Locks are bumped only inside a transaction, ONE command for each rule that applies (reference-locks.ts).
  const lock = (needed: boolean) => {
    if (options.transaction && needed) writes.push(LOCK_COLLECTION);
  };
  for (const operation of plan) {
    switch (operation.kind) {
      case 'requireOne':
        read(1, 1);
        break;
      case 'updateSource': {
        if (operation.by !== '_id' && hasFanOut(model, operation.typeName, operation.fields)) read(1, 1);
        // A single key it sets into a collection some role reads in part is read through the viewer's filter (WriteUnit #requireReadableKeys).
        for (const key of keysSetBy(model, operation.typeName, storedPathsOf(model, operation.typeName, operation.fields))) {
          if (!key.many && options.readInPart?.has(key.collection)) read(1, 1);
        }
        const moves = collectionsOfMoves(model, operation.typeName, storedPathsOf(model, operation.typeName, operation.fields));
        // Moving counters or totals, the source update returns the document as it was (findAndModify).
        if (moves.length > 0) documents += 1;
        lock(options.locks?.locksUpdate(operation.typeName, storedPathsOf(model, operation.typeName, operation.fields)) === true);
        const sourceCommands = moves.length > 0 ? sourceStatementCount(model, operation.typeName, operation.fields) : 1;
        for (let command = 0; command < sourceCommands; command++) writes.push(collectionOf(model, operation.typeName));
        lock(options.locks?.mayMoveCopiedCounters(moves) === true || movesKeyedParents(model, moves));
        writes.push(...distinct([...fanOutCollections(model, operation.typeName, operation.fields), ...returning(moves)]));
        break;
      }
      case 'insert': {
        const held = (coordinate: string) => operation.holds === undefined || operation.holds.includes(coordinate) || options.presetReferences?.has(coordinate) === true;
        const reads = (coordinate: string) => !operation.preloaded?.includes(coordinate) && held(coordinate);
        // A source the resolver read itself stands for a target in a collection some role reads in part only once read again through the viewer's filter.
        const readsPreloaded = (coordinate: string, collection: string) => operation.preloaded?.includes(coordinate) === true && held(coordinate) && options.readInPart?.has(collection) === true;
        for (const field of byKeyReferenceFields(model, operation.typeName)) {
          if (readsPreloaded(field.coordinate, field.shapes.join!.collection)) read(1, field.isList ? maxKeysOf(operation, field.coordinate) : 1);
          if (!reads(field.coordinate)) continue;
          // Proved by its derived update in a transaction: no read. Its document stays counted, for a server without transactions.
          if (options.transaction && provedByDerivedUpdate(model, field) && !options.readInPart?.has(field.shapes.join!.collection)) {
            read(0, 1);
            provedReads += 1;
          }
          else read(1, field.isList ? maxKeysOf(operation, field.coordinate) : 1);
        }
        for (const location of nestedSnapshotLocations(model, operation.typeName)) {
          if (reads(location.coordinate) || readsPreloaded(location.coordinate, location.sourceCollection)) read(1, maxKeysOf(operation, location.coordinate));
        }
        for (const nested of nestedReferences(model, operation.typeName)) {
          if (reads(nested.coordinate) || readsPreloaded(nested.coordinate, nested.collection)) read(1, nested.lists === 0 ? 1 : maxKeysOf(operation, nested.coordinate));
        }
        // Whatever the plan says the input gives: a key a create rule presets from a claim is checked too.
        for (const parent of uncheckedParentRelations(model, operation.typeName)) {
          if (options.readInPart?.has(parent.collection)) read(1, operation.maxKeys?.[parent.coordinate] ?? 1);
        }
        const collection = collectionOf(model, operation.typeName);
        // The children a new parent may already have, where its derived values are keyed by another field than _id.
        for (const existing of existingChildrenReads(model, collection)) read(1, existing.kind === 'sums' ? 1 : (existing.array.limit ?? Number.POSITIVE_INFINITY));
        const derived = collectionsDerivedFromInsert(model, operation.typeName);
        // ONE lock command: the references' targets and the documents whose copied counters it moves.
        lock(
          lockedReferencesOf(model, operation).some((coordinate) => options.locks?.locksTargetsOf(coordinate) === true && (reads(coordinate) || operation.preloaded?.includes(coordinate) === true)) ||
            options.locks?.mayMoveCopiedCounters(derived) === true ||
            movesKeyedParents(model, derived) ||
            existingChildrenReads(model, collection).length > 0,
        );
        writes.push(collection, ...returning(derived));
        break;
      }
      case 'requireMany':
        read(1, operation.maxKeys);
        break;
      case 'delete': {
        const collection = collectionOf(model, operation.typeName);
        read(1, 1);
        const references = incomingReferences(model, operation.typeName).length;
        read(references, references);
        for (const array of boundedArraysOf(model, collection)) read(1, array.limit ?? Number.POSITIVE_INFINITY);
        const derived = collectionsDerivedFromDelete(model, operation.typeName, collection);
        // Moving anything, the delete returns the document as it was (findAndModify).
        if (derived.length > 0) documents += 1;
        lock(options.locks?.locksDelete(operation.typeName) === true);
        writes.push(collection);
        lock(options.locks?.locksRefill(operation.typeName) === true);
        lock(options.locks?.mayMoveCopiedCounters(derived) === true || movesKeyedParents(model, derived));
        writes.push(...returning(derived));
        break;
      }
      case 'changeReference': {
        const field = model.storageMap.relations.get(operation.coordinate);
        if (!field) throw new InvariantError(`write plan: ${operation.coordinate} is no relation`);
        read(2, 2);
        const moves = collectionsOfMoves(model, field.typeName, [field.shapes.join!.localField]);
        // Moving counters or totals keyed there, the update returns the document as it was (findAndModify).
        if (moves.length > 0) documents += 1;
        const locksTarget = lockedReferencesOf(model, operation).some((coordinate) => options.locks?.locksTargetsOf(coordinate) === true);
        lock(locksTarget || options.locks?.locksUpdate(field.typeName, [field.shapes.join!.localField]) === true);
        writes.push(collectionOf(model, field.typeName));
        const boundedCopies = boundedCopiesOf(model, field.typeName).map((array) => array.collection);
        const derived = distinct([...collectionsOfReferenceChange(model, operation.coordinate), ...moves, ...boundedCopies]);
        lock(options.locks?.mayMoveCopiedCounters(derived) === true || movesKeyedParents(model, derived));
        writes.push(...returning(derived));
        break;
      }
      default: {
        const never: never = operation;
        throw new InvariantError(`unknown write operation ${JSON.stringify(never)}`);
      }
    }
  }
  const commit = options.transaction;
  return { roundTrips: reads + writes.length + (commit ? 1 : 0), documents, reads, writes, commit, provedReads };
}

function maxKeysOf(operation: Extract<WriteOperation, { kind: 'insert' }>, coordinate: string): number {
  const max = operation.maxKeys?.[coordinate];
  if (max === undefined) throw new InvariantError(`write plan: insert(${operation.typeName}) declares no maxKeys for ${coordinate}`);
  return max;
}

function collectionOf(model: WriteModel, typeName: string): string {
  const collection = model.storageMap.types.get(typeName)?.collection;
  if (collection === undefined) throw new InvariantError(`write plan: ${typeName} has no @collection`);
  return collection;
}
