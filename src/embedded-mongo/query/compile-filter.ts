import type { Document, Long } from 'bson';
import { CommandError, ErrorCodes } from '../protocol/command-error';
import { TypeRank, typeRank } from '../../bson/type-rank';
import { bsonTag, containsString, isObjectId, isPlainDocument } from './bson-kind';
import { regexParts, stringValue } from '../../bson/bson-text';
import { isNaNNumber, longToBigInt, numericWidth, plainNumber } from '../../bson/bson-number';
import { bsonTypeNumber, TYPE_ALIASES } from './bson-type-number';
import { compareValues, type ValueComparator } from '../../bson/compare-values';
import { valueComparator } from './collation';
import { resolvePath } from './document-path';
import { expressionEvaluator } from './mingo-context';
import { withMongoFieldPaths } from './field-path';
import { packedObjectId, PackedObjectIdSet } from '../../bson/packed-object-id';
import type { QueryScope } from './query-scope';
import { valueKey } from './value-key';

export type DocumentPredicate = (doc: Document) => boolean;
/** Evaluates an aggregation expression for `$expr`; the pipeline passes one that sees `let` variables. */
export type ExpressionEvaluator = (doc: Document, expression: unknown) => unknown;

/** Tests the values one path resolves to (see document-path.ts). */
type FieldMatcher = (values: unknown[]) => boolean;
type ValueTest = (value: unknown) => boolean;

/** What compiling one filter needs besides the filter: `$expr`'s evaluator and, under a collation, its comparator. */
interface FilterContext {
  readonly evaluate: ExpressionEvaluator;
  /** Set only under a non-simple collation: conditions on strings compare through it. */
  readonly collated?: ValueComparator;
  /**
   * Conditions test the value as a whole, not also each element of an array value: MongoDB's
   * matchesSingleElement, which `$elemMatch` on values and `$pull` apply to each element.
   */
  readonly singleElement?: boolean;
}

/**
 * Compiles a query filter once into a predicate reused for every document. Our own matcher rather
 * than mingo's Query: BSON-aware equality and ordering (Long, Decimal128, ObjectId, Date), MongoDB's
 * type brackets for `$gt`/`$lt`, and `$in` as a hash-set lookup (MongoDB docs: "Query Predicates").
 * Under `scope.collation`, conditions whose operand holds a string compare through the collation
 * (MongoDB docs: "Collation"); every other condition compiles exactly as without one.
 * `evaluate` runs `$expr` (default: mingo's evaluator with `scope`'s collation and `let` variables).
 */
export function compileFilter(
  filter: Document | null | undefined,
  scope?: QueryScope,
  evaluate: ExpressionEvaluator = expressionEvaluator(scope),
): DocumentPredicate {
  if (filter === null || filter === undefined) return () => true;
  if (!isPlainDocument(filter)) throw badValue('filter must be an object');
  return compileDocument(filter, filterContext(scope, evaluate));
}

function filterContext(scope: QueryScope | undefined, evaluate: ExpressionEvaluator): FilterContext {
  return scope?.collation === undefined ? { evaluate } : { evaluate, collated: valueComparator(scope.collation) };
}

function compileDocument(filter: Document, context: FilterContext): DocumentPredicate {
  const predicates: DocumentPredicate[] = [];
  for (const key of Object.keys(filter)) {
    const spec: unknown = filter[key];
    if (key.startsWith('$')) {
      const predicate = compileTopLevel(key, spec, context);
      if (predicate) predicates.push(predicate);
      continue;
    }
    const parts = key.split('.');
    const matcher = compileFieldSpec(spec, context);
    predicates.push((doc) => matcher(resolvePath(doc, parts)));
  }
  return allOf(predicates);
}

function allOf(predicates: DocumentPredicate[]): DocumentPredicate {
  if (predicates.length === 0) return () => true;
  if (predicates.length === 1) return predicates[0] as DocumentPredicate;
  return (doc) => {
    for (const predicate of predicates) if (!predicate(doc)) return false;
    return true;
  };
}

function compileTopLevel(operator: string, spec: unknown, context: FilterContext): DocumentPredicate | undefined {
  switch (operator) {
    case '$and':
    case '$or':
    case '$nor': {
      if (!Array.isArray(spec) || spec.length === 0) throw badValue(`${operator} must be a nonempty array`);
      const branches = spec.map((branch: unknown) => {
        if (!isPlainDocument(branch)) throw badValue(`${operator} argument's entries must be objects`);
        return compileDocument(branch, context);
      });
      if (operator === '$and') return allOf(branches);
      if (operator === '$or') return (doc) => branches.some((branch) => branch(doc));
      return (doc) => !branches.some((branch) => branch(doc));
    }
    case '$expr': {
      const evaluate = context.evaluate;
      const expression = withMongoFieldPaths(spec);
      return (doc) => isTruthy(evaluate(doc, expression));
    }
    case '$comment':
      return undefined;
    default:
      throw badValue(`unknown top level operator: ${operator}`);
  }
}

/** MongoDB's truthiness for `$expr`: false, null, missing and numeric zero are false. */
function isTruthy(value: unknown): boolean {
  if (value === false || value === null || value === undefined) return false;
  if (numericWidth(value) !== undefined) return valueKey(value) !== 'i0';
  return true;
}

function isOperatorDocument(spec: unknown): spec is Document {
  if (!isPlainDocument(spec)) return false;
  const first = Object.keys(spec)[0];
  return first !== undefined && first.startsWith('$');
}

/** `{ path: spec }`: an operator document, or an implicit equality (a regex value matches by pattern). */
function compileFieldSpec(spec: unknown, context: FilterContext): FieldMatcher {
  if (isOperatorDocument(spec)) return compileOperators(spec, context);
  if (regexParts(spec)) return anyLeaf(regexTest(spec), context);
  return anyLeaf(equalityTest(spec, context), context);
}

function compileOperators(spec: Document, context: FilterContext): FieldMatcher {
  const matchers: FieldMatcher[] = [];
  const keys = Object.keys(spec);
  for (const operator of keys) {
    const argument: unknown = spec[operator];
    switch (operator) {
      case '$eq':
        matchers.push(anyLeaf(equalityTest(argument, context), context));
        break;
      case '$ne': {
        const eq = anyLeaf(equalityTest(argument, context), context);
        matchers.push((values) => !eq(values));
        break;
      }
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte':
        matchers.push(anyLeaf(comparisonTest(operator, argument, context), context));
        break;
      case '$in':
        matchers.push(anyLeaf(membershipTest(operator, argument, context), context));
        break;
      case '$nin': {
        const inSet = anyLeaf(membershipTest(operator, argument, context), context);
        matchers.push((values) => !inSet(values));
        break;
      }
      case '$exists': {
        const wanted = isTruthy(argument);
        matchers.push((values) => values.some((value) => value !== undefined) === wanted);
        break;
      }
      case '$type':
        matchers.push(anyLeaf(typeTest(argument), context));
        break;
      case '$regex':
        matchers.push(anyLeaf(regexTest(argument, spec.$options), context));
        break;
      case '$options':
        if (!('$regex' in spec)) throw badValue('$options needs a $regex');
        break;
      case '$not': {
        if (!regexParts(argument) && !isOperatorDocument(argument)) throw badValue('$not needs a regex or a document');
        const inner = compileFieldSpec(argument, context);
        matchers.push((values) => !inner(values));
        break;
      }
      case '$elemMatch': {
        const test = elemMatchTest(argument, context);
        matchers.push((values) => values.some((value) => Array.isArray(value) && value.some(test)));
        break;
      }
      case '$size': {
        const size = plainNumber(argument) ?? (numericWidth(argument) ? Number(valueKey(argument).slice(1)) : Number.NaN);
        if (!Number.isInteger(size)) throw badValue('$size needs a number');
        matchers.push((values) => values.some((value) => Array.isArray(value) && value.length === size));
        break;
      }
      case '$all':
        matchers.push(allTest(argument, context));
        break;
      case '$mod':
        matchers.push(anyLeaf(modTest(argument), context));
        break;
      case '$comment':
        break;
      default:
        throw badValue(`unknown operator: ${operator}`);
    }
  }
  if (matchers.length === 1) return matchers[0] as FieldMatcher;
  return (values) => {
    for (const matcher of matchers) if (!matcher(values)) return false;
    return true;
  };
}

/** A field matches when the value itself or, for an array, any of its elements passes. */
function anyLeaf(test: ValueTest, context: FilterContext): FieldMatcher {
  if (context.singleElement) return (values) => values.some(test);
  return (values) => {
    for (const value of values) {
      if (test(value)) return true;
      if (Array.isArray(value)) {
        for (const element of value) if (test(element)) return true;
      }
    }
    return false;
  };
}

function equalityTest(expected: unknown, context: FilterContext): ValueTest {
  if (expected === null || expected === undefined) return (value) => value === null || value === undefined;
  const collated = context.collated;
  if (collated !== undefined && containsString(expected)) return (value) => collated(value, expected) === 0;
  if (typeof expected === 'string') return (value) => value === expected || stringValue(value) === expected;
  if (typeof expected === 'boolean') return (value) => value === expected;
  if (isObjectId(expected)) return (value) => isObjectId(value) && value.equals(expected);
  const key = valueKey(expected);
  const rank = typeRank(expected);
  if (typeof expected === 'number') {
    return (value) => {
      if (typeof value === 'number') return value === expected || (value !== value && expected !== expected);
      return typeRank(value) === TypeRank.Number && valueKey(value) === key;
    };
  }
  return (value) => typeRank(value) === rank && valueKey(value) === key;
}

function comparisonTest(operator: '$gt' | '$gte' | '$lt' | '$lte', bound: unknown, context: FilterContext): ValueTest {
  const rank = typeRank(bound);
  // MinKey/MaxKey bounds compare across types; otherwise only values of the same type bracket match
  const crossType = rank === TypeRank.MinKey || rank === TypeRank.MaxKey;
  const accept = (c: number): boolean => {
    switch (operator) {
      case '$gt':
        return c > 0;
      case '$gte':
        return c >= 0;
      case '$lt':
        return c < 0;
      case '$lte':
        return c <= 0;
      default: {
        const unreachable: never = operator;
        return unreachable;
      }
    }
  };
  // NaN equals NaN and otherwise compares false, whatever the order sorts put it in (jstests/core/nan.js).
  if (isNaNNumber(bound)) return operator === '$gte' || operator === '$lte' ? isNaNNumber : () => false;
  if (typeof bound === 'number') {
    return (value) => {
      if (typeof value === 'number') return value === value && accept(value < bound ? -1 : value > bound ? 1 : 0);
      return typeRank(value) === TypeRank.Number && !isNaNNumber(value) && accept(compareValues(value, bound));
    };
  }
  if (rank === TypeRank.Number) return (value) => typeRank(value) === TypeRank.Number && !isNaNNumber(value) && accept(compareValues(value, bound));
  const collated = context.collated;
  if (collated !== undefined && containsString(bound)) {
    return (value) => (crossType || typeRank(value) === rank) && accept(collated(value, bound));
  }
  return (value) => (crossType || typeRank(value) === rank) && accept(compareValues(value, bound));
}

function membershipTest(operator: string, list: unknown, context: FilterContext): ValueTest {
  if (!Array.isArray(list)) throw badValue(`${operator} needs an array`);
  if (context.collated !== undefined && list.some(containsString)) return collatedMembershipTest(operator, list, context.collated);
  const keys = new Set<string>();
  // strings and ObjectIds, the usual join keys, are also looked up without building a valueKey
  const strings = new Set<string>();
  const objectIds = new PackedObjectIdSet();
  const regexes: ValueTest[] = [];
  for (const item of list) {
    if (regexParts(item)) regexes.push(regexTest(item));
    else if (isOperatorDocument(item)) throw badValue(`cannot nest $ operators inside ${operator}`);
    else {
      keys.add(valueKey(item));
      const text = stringValue(item);
      if (text !== undefined) strings.add(text);
      const packed = isObjectId(item) ? packedObjectId(item) : undefined;
      if (packed !== undefined) objectIds.add(packed);
    }
  }
  const allPacked = list.every((item) => !isObjectId(item) || packedObjectId(item) !== undefined);
  const member = (value: unknown): boolean => {
    if (typeof value === 'string') return strings.has(value);
    if (isObjectId(value)) {
      const packed = packedObjectId(value);
      if (packed !== undefined) return objectIds.has(packed) || (!allPacked && keys.has(valueKey(value)));
    }
    return keys.has(valueKey(value));
  };
  if (regexes.length === 0) return member;
  return (value) => member(value) || regexes.some((test) => test(value));
}

/**
 * `$in` under a collation: the list's values sorted by the collated order and found by binary
 * search (a collator gives no hash key: 'a' and 'A' are one value at strength 2).
 */
function collatedMembershipTest(operator: string, list: unknown[], compare: ValueComparator): ValueTest {
  const regexes: ValueTest[] = [];
  const values: unknown[] = [];
  for (const item of list) {
    if (regexParts(item)) regexes.push(regexTest(item));
    else if (isOperatorDocument(item)) throw badValue(`cannot nest $ operators inside ${operator}`);
    else values.push(item === undefined ? null : item);
  }
  values.sort(compare);
  const member = (value: unknown): boolean => {
    let low = 0;
    let high = values.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const c = compare(values[middle], value);
      if (c === 0) return true;
      if (c < 0) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  };
  if (regexes.length === 0) return member;
  return (value) => member(value) || regexes.some((test) => test(value));
}

function regexTest(pattern: unknown, options?: unknown): ValueTest {
  const parts = regexParts(pattern) ?? (typeof pattern === 'string' ? { pattern, flags: '' } : undefined);
  if (!parts) throw badValue('$regex has to be a string or a regex');
  const extra = typeof options === 'string' ? options : '';
  const flags = [...new Set(`${parts.flags}${extra}`.replace(/[^imsu]/g, ''))].join('');
  let regex: RegExp;
  try {
    regex = new RegExp(parts.pattern, flags);
  } catch (error) {
    throw new CommandError(51091, 'Location51091', `Regular expression is invalid: ${(error as Error).message}`);
  }
  return (value) => {
    const text = stringValue(value);
    if (text !== undefined) return regex.test(text);
    const stored = regexParts(value);
    return stored !== undefined && stored.pattern === parts.pattern && stored.flags === parts.flags;
  };
}

function typeTest(argument: unknown): ValueTest {
  const wanted = (Array.isArray(argument) ? argument : [argument]).map((entry: unknown) => {
    if (entry === 'number') return 'number';
    if (typeof entry === 'string') {
      const code = TYPE_ALIASES[entry];
      if (code === undefined) throw badValue(`Unknown type name alias: ${entry}`);
      return code;
    }
    const code = plainNumber(entry);
    if (code === undefined) throw badValue('type must be represented as a number or a string');
    return code;
  });
  return (value) => {
    if (value === undefined) return false; // missing has no type
    const code = bsonTypeNumber(value);
    return wanted.some((w) => (w === 'number' ? [1, 16, 18, 19].includes(code) : w === code));
  };
}

function modTest(argument: unknown): ValueTest {
  if (!Array.isArray(argument) || argument.length !== 2) throw badValue('malformed mod, needs to be an array of 2 elements');
  const toBig = (n: unknown): bigint => {
    const plain = plainNumber(n);
    if (plain !== undefined) {
      if (!Number.isFinite(plain)) throw badValue('malformed mod, divisor and remainder must be finite');
      return BigInt(Math.trunc(plain));
    }
    if (bsonTag(n as object) === 'Long') return longToBigInt(n as Long);
    const exact = Number(valueKey(n).slice(1));
    return BigInt(Math.trunc(exact));
  };
  if (argument.some((n) => numericWidth(n) === undefined)) throw badValue('malformed mod, divisor and remainder must be numbers');
  const divisor = toBig(argument[0]);
  const remainder = toBig(argument[1]);
  if (divisor === 0n) throw badValue('divisor cannot be 0');
  return (value) => {
    if (numericWidth(value) === undefined) return false;
    const plain = plainNumber(value);
    if (plain !== undefined && !Number.isFinite(plain)) return false;
    return toBig(value) % divisor === remainder;
  };
}

function elemMatchTest(argument: unknown, context: FilterContext): ValueTest {
  if (!isPlainDocument(argument)) throw badValue('$elemMatch needs an Object');
  const keys = Object.keys(argument);
  const logical = new Set(['$and', '$or', '$nor', '$expr']);
  const valueOperators = keys.length > 0 && keys.every((key) => key.startsWith('$') && !logical.has(key));
  if (valueOperators) {
    // `{ $elemMatch: { $gte: 80, $lt: 85 } }`: every operator applies to the same element, as a whole
    const matcher = compileOperators(argument, { ...context, singleElement: true });
    return (element) => matcher([element]);
  }
  const predicate = compileDocument(argument, { ...context, singleElement: false });
  return (element) => isPlainDocument(element) && predicate(element);
}

function allTest(argument: unknown, context: FilterContext): FieldMatcher {
  if (!Array.isArray(argument)) throw badValue('$all needs an array');
  if (argument.length === 0) return () => false;
  const matchers = argument.map((item: unknown): FieldMatcher => {
    if (isPlainDocument(item) && '$elemMatch' in item) return compileOperators(item, context);
    if (isOperatorDocument(item)) throw badValue('no $ expressions in $all');
    if (regexParts(item)) return anyLeaf(regexTest(item), context);
    return anyLeaf(equalityTest(item, context), context);
  });
  return (values) => matchers.every((matcher) => matcher(values));
}

function badValue(message: string): CommandError {
  return new CommandError(ErrorCodes.BadValue, 'BadValue', message);
}

/**
 * A test for one value against a condition as `$pull` and `$elemMatch` use it: an operator document
 * (`{ $gte: 6 }`) applies to the value itself, anything else is MongoDB equality.
 */
export function compileValueMatcher(condition: unknown, scope?: QueryScope, { singleElement = true }: { singleElement?: boolean } = {}): (value: unknown) => boolean {
  const matcher = compileFieldSpec(condition, { ...filterContext(scope, expressionEvaluator(scope)), singleElement });
  return (value) => matcher([value]);
}
