import { Context, evalExpr } from 'mingo/core';
import * as mingoAccumulators from 'mingo/operators/accumulator';
import * as mingoExpressions from 'mingo/operators/expression';
import * as mingoProjections from 'mingo/operators/projection';
import * as mingoQueries from 'mingo/operators/query';
import * as mingoWindows from 'mingo/operators/window';
import type { Iterator as MingoIterator } from 'mingo/lazy';
import type { CollationSpec, Options } from 'mingo/types';
import { isNumeric, isPlainDocument } from './bson-kind';
import { absoluteValue, arithmetic, asDouble, divide, exactToString, longToBigInt, normalize, numericWidth, plainNumber, toExact } from '../../bson/bson-number';
import { CommandError, ErrorCodes, LocationCodes, locationError } from '../protocol/command-error';
import { calculateObjectSize, Decimal128, Long, type Document } from 'bson';
import { Collation, valueComparator } from './collation';
import { distinctValues } from './collated-groups';
import { compareValues } from '../../bson/compare-values';
import type { QueryScope } from './query-scope';
import { bsonTypeNumber, TYPE_ALIASES } from './bson-type-number';
import { PRESORTED } from './presorted-mark';
import { firstSorted, lastSorted, sortDocuments } from './sort-documents';
import { valueKey } from './value-key';
import { FIELD_PATH_OPERATOR, valueAtFieldPath } from './field-path';
import { expressionTruth } from './expression-truth';

/**
 * mingo's operators with BSON-correct replacements for the ones that compare, hash or add values
 * (mingo compares with JS semantics, so Long(1) ≠ 1 and `$sum` skips Long/Decimal128).
 * mingo lets an existing operator win when contexts merge, so we build one full context ourselves.
 */

type Args = unknown[];

/*
 * mingo types each operator family as an intersection of every operator's own signature, which no
 * new operator can satisfy; these are the signatures mingo actually calls them with.
 */
export type StageOperator = (coll: MingoIterator, expr: unknown, options: Options) => MingoIterator;
type AccumulatorOperator = (coll: unknown[], expr: unknown, options: Options) => unknown;
type ExpressionOperator = (obj: unknown, expr: unknown, options: Options) => unknown;

function loose<T>(operators: object): Record<string, T> {
  return operators as Record<string, T>;
}

const mingoAccumulatorOps = loose<AccumulatorOperator>(mingoAccumulators);
const mingoExpressionOps = loose<ExpressionOperator>(mingoExpressions);

function evalArgs(obj: unknown, expr: unknown, options: Options): Args {
  const value = evalExpr(obj, expr, options);
  return Array.isArray(value) ? value : [value];
}

/**
 * The collation a pipeline or `$expr` runs under. It travels in mingo's own `collation` option,
 * which only mingo's `$sort` reads (ours replaces it), so every nested pipeline inherits it.
 */
export function collationOf(options: Options): Collation | undefined {
  const collation: unknown = options.collation;
  return collation instanceof Collation ? collation : undefined;
}

/** mingo options carrying `collation` (see collationOf). */
export function withCollation<T extends Partial<Options>>(options: T, collation: Collation | undefined): T {
  return collation === undefined ? options : { ...options, collation: collation as unknown as CollationSpec };
}

const compareOp =
  (accept: (c: number) => boolean): ExpressionOperator =>
  (obj, expr, options) => {
    const [a, b] = evalArgs(obj, expr, options);
    return accept(compareArguments(a, b, options));
  };

/** An expression ranks a missing value below null, as BSON's order does (queries and sorts take it for null). */
function compareArguments(a: unknown, b: unknown, options: Options): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? -1 : 1;
  return valueComparator(collationOf(options))(a, b);
}

/** `$sum`-style addition: non-numbers are ignored, the result widens like MongoDB's. */
export function sumValues(values: Iterable<unknown>): unknown {
  // running sums per width avoid allocating a Long per addition; Decimal128 takes the general path
  let plain = 0;
  let sawDouble = false;
  let longs = 0n;
  let sawLong = false;
  const decimals: unknown[] = [];
  for (const value of values) {
    const width = numericWidth(value);
    if (width === undefined) continue;
    if (width === 'long') {
      longs += longToBigInt(value as Long);
      sawLong = true;
    } else if (width === 'decimal') decimals.push(value);
    else {
      plain += plainNumber(value) as number;
      if (width === 'double') sawDouble = true;
    }
  }
  let total: unknown;
  if (!sawLong && !sawDouble && Number.isSafeInteger(plain) && (plain > 0x7fffffff || plain < -0x80000000)) total = Long.fromNumber(plain);
  else if (!sawLong) total = sawDouble ? asDouble(plain) : plain;
  else if (sawDouble) total = asDouble(Number(longs) + plain);
  else {
    const exact = longs + BigInt(plain);
    total = exact >= INT64_MIN && exact <= INT64_MAX ? Long.fromBigInt(exact) : Number(exact);
  }
  for (const decimal of decimals) total = arithmetic('add', total, decimal);
  return total;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** `$avg`: null when no numbers; a double unless a Decimal128 took part. */
export function averageValues(values: Iterable<unknown>): unknown {
  const numbers: unknown[] = [];
  for (const value of values) if (isNumeric(value)) numbers.push(value);
  const count = numbers.length;
  const total = sumValues(numbers);
  if (count === 0) return null;
  if (numericWidth(total) === 'decimal') {
    const exact = toExact(total);
    if (exact === undefined || exact.kind !== 'finite') return total;
    // 40 extra digits, then Decimal128 rounds to its 34 significant digits
    const scaled = (exact.coefficient * 10n ** 40n) / BigInt(count);
    return Decimal128.fromStringWithRounding(exactToString(normalize(scaled, exact.exponent - 40)));
  }
  // A plain number, whole or not: a Double wrapper would stop the pipeline's later expressions ($round, $mod…), which take numbers.
  return valueOf(total) / count;
}

function valueOf(value: unknown): number {
  if (typeof value === 'number') return value;
  const exact = toExact(value);
  return exact ? Number(exactToString(exact)) : Number.NaN;
}

function extreme(values: Iterable<unknown>, sign: 1 | -1, compare = compareValues): unknown {
  let best: unknown;
  let found = false;
  for (const value of values) {
    if (value === null || value === undefined) continue; // $min/$max ignore null and missing
    if (!found || sign * compare(value, best) > 0) {
      best = value;
      found = true;
    }
  }
  return found ? best : null;
}

/** mingo hands operators a ComputeOptions; its static `init` copies one so we can set locals (root, groupId). */
export function withLocals(options: Options, locals: Record<string, unknown>): Options {
  const computeOptions = options.constructor as unknown as {
    init?: (o: Options) => Options & { update(l: Record<string, unknown>): Options };
  };
  if (typeof computeOptions.init !== 'function') return options;
  return computeOptions.init(options).update(locals);
}

/**
 * The values of an accumulator's expression over a group, a missing one left out (MongoDB's $push and
 * $addToSet skip it, where mingo's $push gives null; the other accumulators ignore it anyway); a numeric
 * constant counts once per document.
 */
const pushValues: AccumulatorOperator = (coll, expr, options) => {
  if (typeof expr === 'number' || isNumeric(expr)) return coll.map(() => expr);
  // mingo's expression forms ($sum: [a, b]) hand the accumulators their values already, with no expression.
  if (expr === null || expr === undefined) return coll;
  // Copied once, its root set per document, as mingo's own accumulators do.
  const scoped = withLocals(options, {}) as Options & { update?: (locals: Record<string, unknown>) => Options };
  const values: unknown[] = [];
  for (const root of coll) {
    const value = evalExpr(root, expr, scoped.update ? scoped.update({ root }) : scoped);
    if (value !== undefined) values.push(value);
  }
  return values;
};

/**
 * The first of each run of equal values, in input order, by MongoDB's equality: numbers by value across
 * Int32/Long/Double/Decimal128, documents and arrays by their contents; strings under the collation if any.
 */
function distinctMembers(values: readonly unknown[], options: Options): unknown[] {
  const collation = collationOf(options);
  if (collation !== undefined) return distinctValues(values, valueComparator(collation));
  const seen = new Map<string, unknown>();
  for (const value of values) {
    const key = valueKey(value);
    if (!seen.has(key)) seen.set(key, value);
  }
  return [...seen.values()];
}

/** A test of whether a value equals one of `values`, by the same equality as distinctMembers. */
function membershipTest(values: readonly unknown[], options: Options): (value: unknown) => boolean {
  const collation = collationOf(options);
  if (collation !== undefined) {
    const compare = valueComparator(collation);
    return (value) => values.some((member) => compare(member, value) === 0);
  }
  const keys = new Set(values.map(valueKey));
  return (value) => keys.has(valueKey(value));
}

const accumulatorOverrides: Record<string, AccumulatorOperator> = {
  $push: pushValues,
  $sum: (coll, expr, options) => sumValues(pushValues(coll, expr, options) as unknown[]),
  $avg: (coll, expr, options) => averageValues(pushValues(coll, expr, options) as unknown[]),
  $min: (coll, expr, options) => extreme(pushValues(coll, expr, options) as unknown[], -1, valueComparator(collationOf(options))),
  $max: (coll, expr, options) => extreme(pushValues(coll, expr, options) as unknown[], 1, valueComparator(collationOf(options))),
  $addToSet: (coll, expr, options) => distinctMembers(pushValues(coll, expr, options) as unknown[], options),
  $topN: (coll, expr, options) => pickSorted(coll, expr, options, 'top', true),
  $bottomN: (coll, expr, options) => pickSorted(coll, expr, options, 'bottom', true),
  $top: (coll, expr, options) => pickSorted(coll, expr, options, 'top', false),
  $bottom: (coll, expr, options) => pickSorted(coll, expr, options, 'bottom', false),
};

interface SortedPickSpec {
  readonly n?: unknown;
  readonly sortBy?: unknown;
  readonly output?: unknown;
}

/** `$topN`/`$bottomN`/`$top`/`$bottom` with MongoDB's sort order (MongoDB docs: "$topN"). */
function pickSorted(coll: unknown[], expr: unknown, options: Options, end: 'top' | 'bottom', many: boolean): unknown {
  const spec = (expr ?? {}) as SortedPickSpec;
  const groupId = (options as { local?: { groupId?: unknown } }).local?.groupId;
  const n = many ? Number(valueOf(evalExpr(groupId ?? {}, spec.n, options))) : 1;
  if (!(n >= 1)) throw locationError(LocationCodes.nNotPositive, `'n' must be greater than 0, found ${n}`);
  const sortBy = spec.sortBy as Record<string, unknown>;
  const docs = coll as Record<string, unknown>[];
  const collation = collationOf(options);
  let picked: Record<string, unknown>[];
  if ((spec as { [PRESORTED]?: boolean })[PRESORTED] === true && Number.isInteger(n) && n > 0) {
    // the members arrive stably sorted by sortBy already (see presorted-groups.ts)
    picked = end === 'top' ? docs.slice(0, n) : docs.slice(Math.max(0, docs.length - n));
  } else if (Number.isInteger(n) && n > 0) {
    // a bounded heap: a group of m documents costs O(m log n), not a full sort
    picked = end === 'top' ? firstSorted(docs, sortBy, n, collation) : lastSorted(docs, sortBy, n, collation);
  } else {
    const sorted = sortDocuments(docs, sortBy, collation);
    picked = end === 'top' ? sorted.slice(0, n) : sorted.slice(Math.max(0, sorted.length - n));
  }
  const outputs = picked.map((doc) => evalExpr(doc, spec.output, withLocals(options, { root: doc })));
  return many ? outputs : (outputs[0] ?? null);
}

const BSON_TYPE_ALIASES = new Map<number, string>(
  Object.entries(TYPE_ALIASES).map(([alias, code]) => [code, alias]),
);

/** MongoDB's type name of a value in error messages (`typeName`), with `missing` for an absent one. */
function typeName(value: unknown): string {
  return value === undefined ? 'missing' : (BSON_TYPE_ALIASES.get(bsonTypeNumber(value)) ?? 'object');
}

/**
 * The one argument of a fixed-arity operator: MongoDB reads an array operand as the argument list,
 * so `{ $size: ['$a'] }` is the size of `a` and `{ $size: [1, 2] }` is two arguments (16020).
 */
function singleArgument(name: string, expr: unknown): unknown {
  if (!Array.isArray(expr)) return expr;
  if (expr.length !== 1) throw new CommandError(16020, 'Location16020', `Expression ${name} takes exactly 1 arguments. ${expr.length} were passed in.`);
  return expr[0];
}

const ONE_ARGUMENT = (): string => 'One argument';
const FIRST_OR_SECOND = (index: number): string => (index === 0 ? 'First argument' : 'Second argument');

/**
 * How MongoDB reports a set expression's operand that is not an array: one code for any operand, or
 * one per position for the two-operand expressions, and how the message names the operand.
 */
const SET_OPERAND_ERRORS: Readonly<Record<string, { codes: readonly number[]; operand: (index: number) => string }>> = {
  $setUnion: { codes: [17043], operand: ONE_ARGUMENT },
  $setIntersection: { codes: [17047], operand: ONE_ARGUMENT },
  $setEquals: { codes: [17044], operand: (index) => `${index + 1}-th argument` },
  $setDifference: { codes: [17048, 17049], operand: FIRST_OR_SECOND },
  $setIsSubset: { codes: [17046, 17042], operand: FIRST_OR_SECOND },
};

function evaluateOperands(obj: unknown, expr: unknown, options: Options): unknown[] {
  return evalExpr(obj, Array.isArray(expr) ? expr : [expr], options) as unknown[];
}

function isNullish(value: unknown): boolean {
  return value === null || value === undefined;
}

/** A set expression's operands, or MongoDB's error for the first that is not an array. */
function arrayOperands(name: string, operands: unknown[]): unknown[][] {
  const { codes, operand: describe } = SET_OPERAND_ERRORS[name]!;
  for (const [index, operand] of operands.entries()) {
    if (Array.isArray(operand)) continue;
    const code = codes[Math.min(index, codes.length - 1)]!;
    const all = codes.length === 1 ? 'All' : 'both';
    throw new CommandError(code, `Location${code}`, `${all} operands of ${name} must be arrays. ${describe(index)} is of type: ${typeName(operand)}`);
  }
  return operands as unknown[][];
}

/** `$setUnion`/`$setIntersection` operands: null at the first null or missing one, unless an earlier one is not an array. */
function operandsUntilNull(name: string, operands: unknown[]): unknown[][] | null {
  const firstNull = operands.findIndex(isNullish);
  if (firstNull === -1) return arrayOperands(name, operands);
  arrayOperands(name, operands.slice(0, firstNull));
  return null;
}

/** A fixed-arity operator's argument list, as singleArgument reads it (16020 when the count differs). */
function argumentCount(name: string, expr: unknown, count: number): unknown[] {
  const args = Array.isArray(expr) ? expr : [expr];
  if (args.length !== count) throw new CommandError(16020, 'Location16020', `Expression ${name} takes exactly ${count} arguments. ${args.length} were passed in.`);
  return args;
}

/** `$cond`'s operands, in its list form or its `if`/`then`/`else` form, refused as MongoDB refuses them (ExpressionCond::parse). */
export function condOperands(expr: unknown): [unknown, unknown, unknown] {
  if (!isPlainDocument(expr)) return argumentCount('$cond', expr, 3) as [unknown, unknown, unknown];
  for (const key of Object.keys(expr)) {
    if (key !== 'if' && key !== 'then' && key !== 'else') throw new CommandError(17083, 'Location17083', `Unrecognized parameter to $cond: ${key}`);
  }
  const missing = ['if', 'then', 'else'].findIndex((key) => !(key in expr));
  if (missing !== -1) throw new CommandError(17080 + missing, `Location${17080 + missing}`, `Missing '${['if', 'then', 'else'][missing]}' parameter to $cond`);
  return [expr.if, expr.then, expr.else];
}

/**
 * MongoDB's `$first`/`$last` array expressions (ExpressionFirst/ExpressionLast, as `$arrayElemAt` 0 or -1):
 * null for null or missing, missing for an empty array, 28689 for anything else. Where mingo reads
 * `{ $first: ['$a'] }` as a literal list, MongoDB reads its one argument.
 */
function arrayEnd(name: '$first' | '$last', pick: (array: readonly unknown[]) => unknown): ExpressionOperator {
  return (obj, expr, options) => {
    // Over a group's documents (`$group`, `$bucket`) the name is the accumulator's, which mingo's expression hands them to.
    if (Array.isArray(obj)) return mingoExpressionOps[name]!(obj, expr, options);
    return arrayEndValue(name, evalExpr(obj, singleArgument(name, expr), options), pick);
  };
}

/** What `$first`/`$last` give for their argument's value (arrayEnd). */
export function arrayEndValue(name: '$first' | '$last', value: unknown, pick: (array: readonly unknown[]) => unknown): unknown {
  if (isNullish(value)) return null;
  if (!Array.isArray(value)) throw new CommandError(28689, 'Location28689', `${name}'s argument must be an array, but is ${typeName(value)}`);
  return value.length === 0 ? undefined : pick(value);
}

const expressionOverrides: Record<string, ExpressionOperator> = {
  [FIELD_PATH_OPERATOR]: (obj, expr, options) => {
    const [first, ...rest] = expr as [string, ...string[]];
    return valueAtFieldPath(evalExpr(obj, first, options), rest);
  },
  $eq: compareOp((c) => c === 0),
  $ne: compareOp((c) => c !== 0),
  $gt: compareOp((c) => c > 0),
  $gte: compareOp((c) => c >= 0),
  $lt: compareOp((c) => c < 0),
  $lte: compareOp((c) => c <= 0),
  $cmp: (obj, expr, options) => {
    const [a, b] = evalArgs(obj, expr, options);
    return compareArguments(a, b, options);
  },
  $type: (obj, expr, options) => typeName(evalExpr(obj, expr, options)),
  $isArray: (obj, expr, options) => Array.isArray(evalExpr(obj, singleArgument('$isArray', expr), options)),
  // MongoDB's truth: a zero Long or Decimal128 is false too (mingo's $cond takes any object for true)
  $cond: (obj, expr, options) => {
    const [test, then, otherwise] = condOperands(expr);
    return evalExpr(obj, expressionTruth(evalExpr(obj, test, options)) ? then : otherwise, options);
  },
  $first: arrayEnd('$first', (array) => array[0]),
  $last: arrayEnd('$last', (array) => array[array.length - 1]),
  // MongoDB docs, "$size": the length of an array; anything else, null and missing included, fails (17124)
  $size: (obj, expr, options) => {
    const value = evalExpr(obj, singleArgument('$size', expr), options);
    if (!Array.isArray(value)) throw new CommandError(17124, 'Location17124', `The argument to $size must be an array, but was of type: ${typeName(value)}`);
    return value.length;
  },
  // MongoDB docs, "$bsonSize": the encoded size in bytes of a document; null for null or missing. Stored
  // documents keep the BSON number types they arrived with (wire/bson-document.ts), so bson measures them exactly.
  $bsonSize: (obj, expr, options) => {
    const value = evalExpr(obj, singleArgument('$bsonSize', expr), options);
    if (value === null || value === undefined) return null;
    if (!isPlainDocument(value)) throw new CommandError(31393, 'Location31393', `$bsonSize requires a document input, found: ${typeName(value)}`);
    return calculateObjectSize(value, { ignoreUndefined: true });
  },
  $in: (obj, expr, options) => {
    const [needle, haystack] = evalArgs(obj, expr, options);
    if (!Array.isArray(haystack)) throw new Error('$in requires an array as a second argument');
    // Missing equals only missing, as in $eq (compareArguments), and an array holds no missing value:
    // MongoDB turns a missing element of an array expression into null.
    if (needle === undefined) return false;
    return membershipTest(haystack, options)(needle);
  },
  $setUnion: (obj, expr, options) => {
    const sets = operandsUntilNull('$setUnion', evaluateOperands(obj, expr, options));
    return sets && distinctMembers(sets.flat(), options);
  },
  $setIntersection: (obj, expr, options) => {
    const sets = operandsUntilNull('$setIntersection', evaluateOperands(obj, expr, options));
    if (sets === null) return null;
    const [first = [], ...others] = sets;
    const inOthers = others.map((set) => membershipTest(set, options));
    return distinctMembers(first, options).filter((value) => inOthers.every((isMember) => isMember(value)));
  },
  $setDifference: (obj, expr, options) => {
    const operands = evaluateOperands(obj, argumentCount('$setDifference', expr, 2), options);
    if (operands.some(isNullish)) return null;
    const [first, second] = arrayOperands('$setDifference', operands) as [unknown[], unknown[]];
    const inSecond = membershipTest(second, options);
    return distinctMembers(first, options).filter((value) => !inSecond(value));
  },
  $setIsSubset: (obj, expr, options) => {
    const operands = evaluateOperands(obj, argumentCount('$setIsSubset', expr, 2), options);
    const [first, second] = arrayOperands('$setIsSubset', operands) as [unknown[], unknown[]];
    return first.every(membershipTest(second, options));
  },
  $setEquals: (obj, expr, options) => {
    if (!Array.isArray(expr) || expr.length < 2) {
      throw new CommandError(17045, 'Location17045', `$setEquals needs at least two arguments had: ${Array.isArray(expr) ? expr.length : 1}`);
    }
    const [first, ...others] = arrayOperands('$setEquals', evaluateOperands(obj, expr, options)) as [unknown[], ...unknown[][]];
    const inFirst = membershipTest(first, options);
    const size = distinctMembers(first, options).length;
    return others.every((set) => set.every(inFirst) && distinctMembers(set, options).length === size);
  },
  $add: (obj, expr, options) => {
    const args = evalArgs(obj, expr, options);
    if (args.some((arg) => arg === null || arg === undefined)) return null;
    if (!args.every(isNumeric)) return mingoExpressionOps.$add?.(obj, expr, options);
    return args.reduce((total, arg) => arithmetic('add', total, arg), 0);
  },
  $multiply: (obj, expr, options) => {
    const args = evalArgs(obj, expr, options);
    if (args.some((arg) => arg === null || arg === undefined)) return null;
    if (!args.every(isNumeric)) return mingoExpressionOps.$multiply?.(obj, expr, options);
    return args.reduce((total, arg) => arithmetic('multiply', total, arg), 1);
  },
  // MongoDB docs, "$subtract": numbers keep the wider type; date − date is a Long of milliseconds; date − number is a date
  $subtract: (obj, expr, options) => {
    const [a, b] = evalArgs(obj, expr, options);
    if (a === null || a === undefined || b === null || b === undefined) return null;
    if (isNumeric(a) && isNumeric(b)) return arithmetic('subtract', a, b);
    if (a instanceof Date && b instanceof Date) return Long.fromNumber(a.getTime() - b.getTime());
    if (a instanceof Date && isNumeric(b)) return new Date(a.getTime() - Math.round(Number(valueOf(b))));
    return mingoExpressionOps.$subtract?.(obj, expr, options);
  },
  // MongoDB docs, "$isNumber": true for int, long, double and decimal, whatever wrapper holds them.
  $isNumber: (obj, expr, options) => isNumeric(evalExpr(obj, Array.isArray(expr) ? expr[0] : expr, options)),
  $abs: (obj, expr, options) => {
    const [value] = evalArgs(obj, expr, options);
    if (value === null || value === undefined) return null;
    if (!isNumeric(value)) return mingoExpressionOps.$abs?.(obj, expr, options);
    try {
      return absoluteValue(value);
    } catch (error) {
      throw new CommandError(28680, 'Location28680', (error as Error).message);
    }
  },
  $divide: (obj, expr, options) => {
    const [a, b] = evalArgs(obj, expr, options);
    if (a === null || a === undefined || b === null || b === undefined) return null;
    if (!isNumeric(a) || !isNumeric(b)) return mingoExpressionOps.$divide?.(obj, expr, options);
    const quotient = divide(a, b);
    if (quotient === undefined) throw new CommandError(ErrorCodes.BadValue, 'BadValue', "can't $divide by zero");
    return quotient;
  },
  // MongoDB docs, "$sortArray": elements sort in BSON order (sortBy 1/-1), or documents by fields
  $sortArray: (obj, expr, options) => {
    const spec = (expr ?? {}) as { input?: unknown; sortBy?: unknown };
    const input = evalExpr(obj, spec.input, options);
    if (input === null || input === undefined) return null;
    if (!Array.isArray(input)) throw new CommandError(2, 'BadValue', 'The input argument to $sortArray must be an array');
    const sortBy = spec.sortBy;
    // wrapped as { v }, so values and documents both sort through sortDocuments (missing fields as null)
    const wrapped = input.map((v: unknown) => ({ v }));
    const bySort =
      typeof sortBy === 'number'
        ? { v: sortBy }
        : Object.fromEntries(Object.entries((sortBy ?? {}) as Record<string, unknown>).map(([path, direction]) => [`v.${path}`, direction]));
    return sortDocuments(wrapped, bySort, collationOf(options)).map((entry) => entry.v);
  },
};

/** Builds mingo's context with our overrides; pipeline stage overrides are supplied by run-pipeline.ts. */
export function createContext(pipelineOps: Record<string, StageOperator>): Context {
  type Operators = NonNullable<Parameters<typeof Context.init>[0]>;
  const operators = {
    accumulator: { ...mingoAccumulatorOps, ...accumulatorOverrides },
    expression: { ...mingoExpressionOps, ...expressionOverrides },
    pipeline: pipelineOps,
    projection: { ...mingoProjections },
    query: { ...mingoQueries },
    window: { ...mingoWindows },
  };
  return Context.init(operators as unknown as Operators);
}

/**
 * mingo copies the whole operator context whenever it is handed plain options, which would happen
 * per document. So we capture one of its prepared options objects once and derive cheap copies.
 */
const preparedOptions: Options = (() => {
  let captured: Options | undefined;
  const capture: ExpressionOperator = (_obj, _expr, options) => {
    captured = options;
    return null;
  };
  const context = createContext({}).addExpressionOps({ $captureOptions: capture } as unknown as Parameters<Context['addExpressionOps']>[0]);
  evalExpr({}, { $captureOptions: 1 }, { context } as unknown as Options);
  if (!captured) throw new Error('mingo did not call the capture operator');
  return captured;
})();

/** Evaluates an aggregation expression against one document (used by `$expr` in find filters). */
export function evaluateExpression(doc: unknown, expression: unknown): unknown {
  try {
    return evalExpr(doc, expression, withLocals(preparedOptions, { root: doc }));
  } catch (error) {
    throw undefinedVariableError(error) ?? error;
  }
}

/**
 * An evaluator for `$expr` in one operation's filters: `evaluateExpression` itself when the
 * operation has no collation and no `let` variables, else one whose options carry them.
 */
export function expressionEvaluator(scope: QueryScope | undefined): (doc: unknown, expression: unknown) => unknown {
  const collation = scope?.collation;
  const variables = scope?.variables;
  if (collation === undefined && variables === undefined) return evaluateExpression;
  const base = collation === undefined ? preparedOptions : optionsWithCollation(collation);
  return (doc, expression) => {
    try {
      return evalExpr(doc, expression, withLocals(base, variables === undefined ? { root: doc } : { root: doc, variables: { ...variables } }));
    } catch (error) {
      throw undefinedVariableError(error) ?? error;
    }
  };
}

/** A fresh copy of the prepared options with `collation` (copies mingo's context once per operation). */
function optionsWithCollation(collation: Collation): Options {
  const computeOptions = preparedOptions.constructor as unknown as { init(o: Partial<Options>): Options };
  const inner = (preparedOptions as unknown as { options: Options }).options;
  return computeOptions.init(withCollation({ ...inner }, collation));
}

/** mingo's "Use of undefined variable: x" as MongoDB's 17276, or undefined for any other error. */
export function undefinedVariableError(error: unknown): CommandError | undefined {
  if (!(error instanceof Error) || error instanceof CommandError) return undefined;
  const match = /^Use of undefined variable: (.*)$/.exec(error.message);
  return match === null ? undefined : locationError(LocationCodes.undefinedVariable, `Use of undefined variable: ${match[1]}`);
}

/**
 * Evaluates a command's `let` document (MongoDB docs: "let" of find, aggregate, update, delete):
 * each value is an expression evaluated once, without a document; names must be valid user
 * variable names (16866–16868).
 */
export function evaluateLetVariables(spec: Document): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const [name, expression] of Object.entries(spec)) {
    if (readsField(expression)) {
      throw locationError(
        LocationCodes.letReadsField,
        'Command let Expression tried to access a field, but this is not allowed because Command let Expressions run before the query examines any documents.',
      );
    }
    assertUserVariableName(name);
    variables[name] = evaluateExpression({}, expression);
  }
  return variables;
}

/** Whether an expression holds a field path (`"$qty"`, not `"$$var"`), outside `$literal`. */
function readsField(expression: unknown): boolean {
  if (typeof expression === 'string') return expression.startsWith('$') && !expression.startsWith('$$');
  if (Array.isArray(expression)) return expression.some(readsField);
  if (!isPlainDocument(expression)) return false;
  return Object.entries(expression).some(([key, value]) => key !== '$literal' && readsField(value));
}

/** MongoDB's variable_validation: a lowercase ASCII letter or non-ASCII first, then letters, digits, `_` or non-ASCII. */
function assertUserVariableName(name: string): void {
  if (name === '') throw locationError(LocationCodes.emptyVariableName, 'empty variable names are not allowed');
  const first = name.charCodeAt(0);
  if (!((first >= 0x61 && first <= 0x7a) || first > 0x7f)) {
    throw locationError(LocationCodes.variableNameStart, `'${name}' starts with an invalid character for a user variable name`);
  }
  for (const char of name) {
    if (!/^[A-Za-z0-9_]$/.test(char) && char.charCodeAt(0) <= 0x7f) {
      throw locationError(LocationCodes.variableNameCharacter, `'${name}' contains an invalid character for a variable name: '${char}'`);
    }
  }
}
