import { numericWidth } from '../../bson/bson-number';
import type { StoredDocument } from '../documents/stored-document';
import { isPlainObject } from '../documents/stored-document';
import { InvariantError } from '../errors/internal-errors';

/**
 * An update of a document holding counters, totals or bounded arrays (`$inc`, `$push`, `$pull`, `$set`,
 * as UpdateMerger builds it) as the same change in an update pipeline, where each of `copyPaths` changes
 * only where the document holds one: a number for an `$inc`, an array for a `$push`. An operator update
 * would start a missing counter from nothing (`$inc` of a missing field sets the increment) and a missing
 * bounded array from the new child alone, and reads trust both from then on; left missing, reads join
 * the children instead until `docjoin reconcile --fix` fills them. A null one would fail the write.
 *
 * The other paths keep their operator's meaning: a `$push` onto a missing or null list starts it, a `$pull`
 * from one changes nothing. An integer `$inc` on a long keeps a long and fails past its range, as the
 * operator does (`$add` would turn it into a double): `$toLong` fails with ConversionFailure there.
 *
 * One `$set` stage per path, each setting the path's top-level field, to its value as it was where the
 * change does not apply: a dotted path set to nothing would leave an empty document around it.
 */
export function guardedPipeline(update: StoredDocument, copyPaths: ReadonlySet<string>): StoredDocument[] {
  return Object.entries(update).flatMap(([operator, changes]) => {
    if (!isPlainObject(changes)) throw new InvariantError(`guardedPipeline: ${operator} holds no paths`);
    return Object.entries(changes).map(([path, argument]) => {
      const [top, ...below] = path.split('.') as [string, ...string[]];
      const change = changeOf(operator, path, argument, copyPaths.has(path));
      if (change.applies === undefined) return { $set: { [path]: change.value } };
      return { $set: { [top]: { $cond: [change.applies, withValueAt(top, below, change.value), `$${top}`] } } };
    });
  });
}

/** What a change sets `path` to, and when it applies (undefined: always, as `$set` does). */
function changeOf(operator: string, path: string, argument: unknown, onlyWhereHeld: boolean): { applies?: unknown; value: unknown } {
  const current = `$${path}`;
  switch (operator) {
    case '$set':
      return { value: { $literal: argument } };
    case '$inc':
      return onlyWhereHeld ? { applies: { $isNumber: current }, value: keptWidthSum(current, argument) } : invariant(operator, path);
    case '$push': {
      const pushed = pushedArray(current, argument);
      if (onlyWhereHeld) return { applies: { $isArray: current }, value: pushed };
      return { value: { $cond: [{ $isArray: current }, pushed, { $ifNull: [current, { $literal: pushEach(argument) }] }] } };
    }
    case '$pull':
      if (onlyWhereHeld || isPlainObject(argument)) return invariant(operator, path);
      return { applies: { $isArray: current }, value: { $filter: { input: current, cond: { $ne: ['$$this', { $literal: argument }] } } } };
    default:
      return invariant(operator, path);
  }
}

/**
 * The field `top` with `value` at the path `below` inside it (`top` itself when `below` is empty): the
 * documents on the way are kept, which the change applying (a number or an array at the end) proves exist.
 */
function withValueAt(top: string, below: readonly string[], value: unknown): unknown {
  if (below.length === 0) return value;
  const [name, ...rest] = below as [string, ...string[]];
  return { $mergeObjects: [`$${top}`, { [name]: withValueAt(`${top}.${name}`, rest, value) }] };
}

/**
 * `current + amount` in the type `$inc` leaves: a long stays a long (an int becomes one when the amount
 * is a Long), so a sum past a long's range fails in `$toLong` instead of becoming a double.
 */
function keptWidthSum(current: string, amount: unknown): unknown {
  const sum = { $add: [current, { $literal: amount }] };
  const width = numericWidth(amount);
  if (width === 'double' || width === 'decimal') return sum;
  const integers = width === 'long' ? ['int', 'long'] : ['long'];
  return { $cond: [{ $in: [{ $type: current }, integers] }, { $toLong: sum }, sum] };
}

/** A `$push` of `{ $each, $sort, $slice }` (or one value) onto the array at `current`, as an expression. */
function pushedArray(current: string, argument: unknown): unknown {
  let array: unknown = { $concatArrays: [current, { $literal: pushEach(argument) }] };
  if (!isPlainObject(argument) || !('$each' in argument)) return array;
  if (argument.$sort !== undefined) array = { $sortArray: { input: array, sortBy: argument.$sort } };
  if (argument.$slice !== undefined) array = { $slice: [array, argument.$slice] };
  return array;
}

function pushEach(argument: unknown): unknown[] {
  return isPlainObject(argument) && Array.isArray(argument.$each) ? argument.$each : [argument];
}

function invariant(operator: string, path: string): never {
  throw new InvariantError(`guardedPipeline: no pipeline form for ${operator} of ${path}`);
}
