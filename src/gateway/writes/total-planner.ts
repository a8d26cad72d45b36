import { Decimal128, Double, Long } from 'bson';
import { arithmetic, compareNumbers, exactToString, numericWidth, toExact } from '../../bson/bson-number';
import { bsonTag } from '../../bson/bson-tag';
import { isKeyValue, keyString } from '../documents/key-string';
import { readPath } from '../documents/read-path';
import type { StoredDocument } from '../documents/stored-document';
import type { TotalRule, WriteModel } from '../startup/write-model/write-model-types';
import { distinct, type UpdateMerger } from './write-steps';
import { badUserInput } from '../errors/public-error-code';

/**
 * The `@total` rules a `typeName` document feeds (it is one of the children they sum). Insert adds its
 * value to its parent's total, delete takes it away, and an update of its summed field (or of the key
 * naming its parent) moves it by the difference, read from the document as it was before.
 */
export function totalsFedBy(model: WriteModel, typeName: string): readonly TotalRule[] {
  return model.totals.filter((total) => total.childType === typeName);
}

/** The totals an update setting `paths` of a `typeName` document moves: those summing one of them, or keyed by one. */
export function totalsMovedBy(model: WriteModel, typeName: string, paths: readonly string[]): readonly TotalRule[] {
  return totalsFedBy(model, typeName).filter((total) => paths.includes(total.summedPath) || paths.includes(total.childKey));
}

/** The collections a write feeding `totals` updates, each once. */
export function totalCollections(totals: readonly TotalRule[]): string[] {
  return distinct(totals.map((total) => total.collection));
}

/** What a new parent's total starts at: zero, in the total's own type. */
export function zeroTotal(total: TotalRule): unknown {
  return asTotalValue(total, 0);
}

/**
 * A sum as `total` stores it: a Long as a long, a Decimal as a Decimal128, a Float as a double (so the
 * `$inc`s of Int children never overflow it into a long).
 */
export function asTotalValue(total: TotalRule, sum: unknown): unknown {
  const tag = typeof sum === 'object' && sum !== null ? bsonTag(sum) : undefined;
  if (total.scalar === 'Decimal') return tag === 'Decimal128' ? sum : Decimal128.fromString(exactToString(toExact(sum)!));
  if (total.scalar === 'Long') return tag === 'Long' ? sum : Long.fromString(exactToString(toExact(sum)!));
  return new Double(Number(exactToString(toExact(sum)!)));
}

/**
 * Adds to `merger` the `$inc` of each parent's total by `document`'s value (`sign` -1: taken away, as a
 * delete does). A child without a number there adds nothing, as MongoDB's `$sum` skips it.
 */
export function addTotalIncrements(merger: UpdateMerger, totals: readonly TotalRule[], document: StoredDocument, sign: 1 | -1): void {
  for (const total of totals) increment(merger, total, readPath(document, total.childKey), readPath(document, total.summedPath), sign);
}

/**
 * Adds to `merger` the `$inc`s an update of one child makes to `totals`, from the child `before` it (its
 * key and summed paths) and the stored paths it set (`$set`): the difference on its parent, or, when it
 * moved to another parent, its old value taken from the old one and its new value added to the new one.
 */
export function addTotalMoves(merger: UpdateMerger, totals: readonly TotalRule[], before: StoredDocument, $set: StoredDocument): void {
  for (const total of totals) {
    const oldParent = readPath(before, total.childKey);
    const oldValue = readPath(before, total.summedPath);
    const newParent = total.childKey in $set ? $set[total.childKey] : oldParent;
    const newValue = total.summedPath in $set ? $set[total.summedPath] : oldValue;
    if (isKeyValue(oldParent) && isKeyValue(newParent) && keyString(oldParent) === keyString(newParent)) {
      const difference = arithmetic('subtract', asNumber(newValue) ?? 0, asNumber(oldValue) ?? 0);
      if (compareNumbers(difference, 0) !== 0) merger.add(total.collection, { path: total.parentKey, value: oldParent }, {}, '$inc', total.path, asIncrement(total, difference), total.parentKey !== '_id');
      continue;
    }
    increment(merger, total, oldParent, oldValue, -1);
    increment(merger, total, newParent, newValue, 1);
  }
}

function increment(merger: UpdateMerger, total: TotalRule, parent: unknown, value: unknown, sign: 1 | -1): void {
  const amount = asNumber(value);
  if (!isKeyValue(parent) || amount === undefined) return;
  merger.add(total.collection, { path: total.parentKey, value: parent }, {}, '$inc', total.path, asIncrement(total, sign === 1 ? amount : arithmetic('subtract', 0, amount)), total.parentKey !== '_id');
}

/**
 * An increment of `total`: a double for a Float, which turns a total stored as an int (by an older
 * writer, or an `$inc` of a missing field) into a double, so it cannot overflow into a long; a long for
 * a Long; a Decimal's as the child holds it (MongoDB adds it to the Decimal128 exactly).
 */
function asIncrement(total: TotalRule, amount: unknown): unknown {
  return total.scalar === 'Decimal' ? amount : asTotalValue(total, amount);
}

/**
 * Refuses (BAD_USER_INPUT) a value a write gives the summed field of a Float total, `valueAt` its
 * stored path, when it is 2^970 or more either way: two such values could take the total past the
 * largest Float. Checked before anything is written. What a delete or a move takes back from a total
 * is never refused: it was added once.
 */
export function refuseOversizedFloatSteps(totals: readonly TotalRule[], valueAt: (path: string) => unknown): void {
  for (const total of totals) {
    const value = total.scalar === 'Float' ? asNumber(valueAt(total.summedPath)) : undefined;
    if (value === undefined || Math.abs(Number(exactToString(toExact(value)!))) < MAX_FLOAT_STEP) continue;
    throw badUserInput(`${total.coordinate} would move by ${String(Number(value))}; a change of a Float total must stay under ${MAX_FLOAT_STEP.toExponential(3)}, or the total could pass the largest Float and no read could answer it`, {
      field: total.coordinate,
    });
  }
}

/**
 * Half the gap between the largest double and the one below it (2^970): added to any finite double, a
 * step smaller than this rounds to a finite one, so a Float total moved only by such steps never becomes
 * Infinity (which no GraphQL Float can answer).
 */
const MAX_FLOAT_STEP = 2 ** 970;

/** The stored paths of `totals` an update must read before it writes: each one's key and summed field. */
export function pathsBeforeUpdate(totals: readonly TotalRule[]): string[] {
  return distinct(totals.flatMap((total) => [total.childKey, total.summedPath]));
}

function asNumber(value: unknown): unknown {
  return numericWidth(value) === undefined ? undefined : value;
}

