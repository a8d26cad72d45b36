import { Decimal128, Double, Long } from 'bson';
import { arithmetic, compareNumbers, exactToString, INT64_MAX, INT64_MIN, numericWidth, toExact } from '../../bson/bson-number';
import { bsonTag } from '../../bson/bson-tag';
import { isKeyValue, keyString } from '../documents/key-string';
import { readPath } from '../documents/read-path';
import type { StoredDocument } from '../documents/stored-document';
import type { TotalRule, WriteModel } from '../startup/write-model/write-model-types';
import { distinct, type UpdateMerger } from './write-steps';
import { badUserInput } from '../errors/public-error-code';

/**
 * The `@total` rules a `typeName` document feeds (it is stored among the children they sum). Insert adds its
 * value to its parent's total, delete takes it away, and an update of its summed field (or of the key
 * naming its parent) moves it by the difference, read from the document as it was before.
 */
export function totalsFedBy(model: WriteModel, typeName: string): readonly TotalRule[] {
  // By collection, as counters are: another type over the children's documents feeds the same totals.
  const collection = model.storageMap.types.get(typeName)?.collection;
  return model.totals.filter((total) => total.childCollection === collection);
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
  return new Double(asDouble(sum));
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
 * a Long; a Decimal's as the child holds it (MongoDB adds it to the Decimal128, rounding the sum to 34
 * significant digits, which is why a Decimal total answers no aggregate: EXACT_SUMS).
 */
function asIncrement(total: TotalRule, amount: unknown): unknown {
  return total.scalar === 'Decimal' ? amount : asTotalValue(total, amount);
}

/**
 * Refuses (BAD_USER_INPUT) a value a write gives the summed field of a total, `valueAt` its stored
 * path, that the total cannot take: for a Float, MAX_FLOAT_STEP or more either way (two such values
 * could take the total past the largest Float); for a Long, a number that is no 64-bit integer (written
 * through a JSON field around the path, it would be cut or wrapped); for a Decimal, MAX_DECIMAL_STEP or
 * more either way. Checked before anything is written.
 * What a delete takes back from a total is never refused: it was added once. What an update moves by
 * the value the child held is checked by the update itself (floatStepCondition).
 */
export function refuseValuesTotalsCannotTake(totals: readonly TotalRule[], valueAt: (path: string) => unknown): void {
  for (const total of totals) {
    const value = asNumber(valueAt(total.summedPath));
    if (value === undefined) continue;
    if (total.scalar === 'Float') refuseOversizedStep(total, asDouble(value));
    else if (total.scalar === 'Long' && !isLongValue(value)) {
      throw badUserInput(`${total.coordinate} sums 64-bit integers, and ${exactToString(toExact(value)!)} is not one; give ${total.summedField} a whole number between -2^63 and 2^63 - 1`, { field: total.coordinate });
    } else if (total.scalar === 'Decimal' && (compareNumbers(value, MAX_DECIMAL_STEP) >= 0 || compareNumbers(value, MIN_DECIMAL_STEP) <= 0)) {
      throw badUserInput(`${total.coordinate} sums Decimals, and ${total.summedField} values of 1E+6110 or more either way could take it past the largest Decimal128, where no read could answer it; give ${total.summedField} a smaller value`, { field: total.coordinate });
    }
  }
}

/**
 * The bound on a Decimal total's steps: fewer than 10^34 of them (more than any collection holds) add
 * up to less than 1E+6144, inside Decimal128's range (it ends near 1E+6145, where MongoDB's sum becomes
 * Infinity). An update's difference is at most twice a step, still far inside it.
 */
const MAX_DECIMAL_STEP = Decimal128.fromString('1E+6110');
const MIN_DECIMAL_STEP = Decimal128.fromString('-1E+6110');

/**
 * A fresh `$sum` of the children as `total` stores it; BAD_USER_INPUT when it does not fit (a Long sum
 * past 64 bits, which `$sum` turns into a double; a Float sum past the largest double).
 */
export function sumAsTotalValue(total: TotalRule, sum: unknown): unknown {
  const fits = total.scalar === 'Long' ? isLongValue(sum) : total.scalar === 'Decimal' || Number.isFinite(asDouble(sum));
  if (!fits) {
    // Not the sum itself: it may count rows the writer may not read.
    throw badUserInput(`${total.coordinate} would start at the sum of the ${total.childType} rows already holding its key, which a ${total.scalar} cannot hold`, { field: total.coordinate });
  }
  return asTotalValue(total, sum);
}

function isLongValue(value: unknown): boolean {
  const digits = exactToString(toExact(value)!);
  if (!/^-?\d+$/.test(digits)) return false;
  const whole = BigInt(digits);
  return whole >= INT64_MIN && whole <= INT64_MAX;
}

/**
 * What a single-document update setting `$set` must find in the child for each Float total of `totals`
 * to move by less than MAX_FLOAT_STEP: its stored value within that of the value it is given (the total
 * moves by the difference), or, re-pointed to another parent, under it (the new parent gains it whole).
 * Added to the update's filter, so the check and the write are one command. undefined when no Float
 * total moves by a value the child holds.
 */
export function floatStepCondition(totals: readonly TotalRule[], $set: StoredDocument): StoredDocument | undefined {
  const conditions: StoredDocument[] = [];
  for (const total of totals) {
    if (total.scalar !== 'Float') continue;
    const parent = total.childKey in $set ? $set[total.childKey] : undefined;
    if (total.summedPath in $set) {
      const value = asNumber($set[total.summedPath]);
      // Given a value and a parent, it leaves its old parent with what it added there; cleared, likewise. A child with no parent moves no total.
      if (value !== undefined && !(total.childKey in $set)) conditions.push({ $or: [{ [total.childKey]: null }, ...storedValueNear(total.summedPath, asDouble(value))] });
    } else if (isKeyValue(parent)) conditions.push({ $or: [{ [total.childKey]: parent }, ...storedValueNear(total.summedPath, 0)] });
  }
  if (conditions.length === 0) return undefined;
  return conditions.length === 1 ? conditions[0] : { $and: conditions };
}

/**
 * Refuses (BAD_USER_INPUT) the update `floatStepCondition` kept from matching `before` (the child as it
 * is, with the paths pathsBeforeUpdate names): the step it would move a total by. Returns when no step
 * is too large: the child changed since (the filter and this check read a child alike).
 */
export function refuseOversizedFloatMoves(totals: readonly TotalRule[], before: StoredDocument, $set: StoredDocument): void {
  for (const total of totals) {
    if (total.scalar !== 'Float') continue;
    const oldParent = readPath(before, total.childKey);
    const newParent = total.childKey in $set ? $set[total.childKey] : oldParent;
    const oldValue = asNumber(readPath(before, total.summedPath));
    const newValue = asNumber(total.summedPath in $set ? $set[total.summedPath] : oldValue);
    if (isKeyValue(oldParent) && isKeyValue(newParent) && keyString(oldParent) === keyString(newParent)) refuseOversizedStep(total, asDouble(newValue ?? 0) - asDouble(oldValue ?? 0));
    else if (isKeyValue(newParent) && newValue !== undefined) refuseOversizedStep(total, asDouble(newValue));
  }
}

function refuseOversizedStep(total: TotalRule, step: number): void {
  if (Math.abs(step) < MAX_FLOAT_STEP) return;
  throw badUserInput(`${total.coordinate} would move by ${String(step)}; a change of a Float total must stay under ${MAX_FLOAT_STEP.toExponential(3)}, or the total could pass the largest Float and no read could answer it`, {
    field: total.coordinate,
  });
}

/**
 * A filter's alternatives for a child's stored value at `path`: within MAX_FLOAT_STEP of `center`, or no
 * number (it moves nothing), as addTotalMoves reads it: an array of numbers included, and numbers
 * reached through an array on the way (`meta: [{ weight: 1 }]` for `meta.weight`).
 */
function storedValueNear(path: string, center: number): StoredDocument[] {
  const segments = path.split('.');
  const arraysOnTheWay = segments.map((_, index) => ({ [segments.slice(0, index + 1).join('.')]: { $type: 'array' } }));
  return [{ [path]: { $gt: new Double(center - MAX_FLOAT_STEP), $lt: new Double(center + MAX_FLOAT_STEP) } }, { [path]: { $not: { $type: 'number' } } }, ...arraysOnTheWay];
}

/**
 * 2^969: half of the gap between the largest double and the one below it is 2^970, and a step smaller
 * than that added to a finite double rounds to a finite one, so a Float total moved only by smaller
 * steps never becomes Infinity (which no GraphQL Float can answer). Half of that again leaves room for
 * the rounding of a filter's bounds (`value ± 2^969`, off by 2^917 at most).
 */
const MAX_FLOAT_STEP = 2 ** 969;

function asDouble(value: unknown): number {
  return Number(exactToString(toExact(value)!));
}

/** The stored paths of `totals` an update must read before it writes: each one's key and summed field. */
export function pathsBeforeUpdate(totals: readonly TotalRule[]): string[] {
  return distinct(totals.flatMap((total) => [total.childKey, total.summedPath]));
}

function asNumber(value: unknown): unknown {
  return numericWidth(value) === undefined ? undefined : value;
}

