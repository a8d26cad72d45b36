import type { Decimal128, Long, ObjectId } from 'bson';
import { isBsonNumber, isObjectId } from '../../documents/bson-type';
import { objectIdArgument } from '../../documents/object-id-argument';
import { InvariantError } from '../../errors/internal-errors';
import { badUserInput } from '../../errors/public-error-code';
import type { StoredDocument } from '../../documents/stored-document';
import type { RootCondition } from '../../startup/storage-map/storage-map-types';
import { quoteInput } from '../../errors/quote-input';

/**
 * A list's filter arguments as MongoDB conditions: typed values only (a GraphQL scalar or enum, an id
 * as an ObjectId), turned into operators here, so no caller ever writes an operator from user input.
 */

/** A value a root filter may compare against: typed, never an operator document. */
export type FilterValue = string | number | boolean | Date | ObjectId | Long | Decimal128 | null;
/**
 * Equality, or one comparison. Converted to MongoDB operators here (`{ lt: d }` → `{ $lt: d }`, `prefix`
 * → an anchored, escaped regular expression), so callers never write operators themselves.
 */
export type FieldCondition =
  | FilterValue
  | { readonly ne: FilterValue }
  | { readonly lt: FilterValue }
  | { readonly lte: FilterValue }
  | { readonly gt: FilterValue }
  | { readonly gte: FilterValue }
  | { readonly in: readonly FilterValue[] }
  | { readonly prefix: string };
export type RootFilter = Readonly<Record<string, FieldCondition>>;

/** One filter per given argument (an argument left out or null filters nothing). */
export function conditionFilters(conditions: readonly RootCondition[], args: Readonly<Record<string, unknown>>): RootFilter[] {
  const filters: RootFilter[] = [];
  for (const condition of conditions) {
    const value = args[condition.argumentName];
    if (value === undefined || value === null) continue;
    filters.push({ [condition.path]: fieldCondition(condition, value) });
  }
  return filters;
}

function fieldCondition(condition: RootCondition, value: unknown): FieldCondition {
  if (condition.op === 'IN') return { in: (value as readonly unknown[]).map((item) => filterValue(condition, item)) };
  const operand = filterValue(condition, value);
  switch (condition.op) {
    case 'EQ':
      return operand;
    case 'NE':
      return { ne: operand };
    case 'LT':
      return { lt: operand };
    case 'LTE':
      return { lte: operand };
    case 'GT':
      return { gt: operand };
    case 'GTE':
      return { gte: operand };
    case 'PREFIX':
      return { prefix: String(operand) };
    default: {
      const never: never = condition.op;
      throw new InvariantError(`unknown filter op ${String(never)}`);
    }
  }
}

/** An argument value as MongoDB compares it: IDs of ObjectId fields become ObjectIds (BAD_USER_INPUT otherwise). */
function filterValue(condition: RootCondition, value: unknown): FilterValue {
  if (condition.objectId) return objectIdArgument(value, condition.argumentName);
  if (isFilterValue(value)) return value;
  throw badUserInput(`${condition.argumentName} must be a plain value, got ${quoteInput(value)}`, { argumentName: condition.argumentName });
}

/** Typed conditions to a MongoDB filter. Any other object value is a bug in a resolver, not user input. */
export function toMongoFilter(filter: RootFilter | readonly RootFilter[]): StoredDocument {
  if (isFilterList(filter)) {
    const parts = filter.map(toMongoFilter).filter((part) => Object.keys(part).length > 0);
    return parts.length === 0 ? {} : parts.length === 1 ? parts[0]! : { $and: parts };
  }
  const result: StoredDocument = {};
  for (const [path, condition] of Object.entries(filter)) {
    if (path.startsWith('$')) throw new InvariantError(`root filter path ${path} starts with $`);
    result[path] = toCondition(path, condition);
  }
  return result;
}

function isFilterList(filter: RootFilter | readonly RootFilter[]): filter is readonly RootFilter[] {
  return Array.isArray(filter);
}

const COMPARISONS = ['ne', 'lt', 'lte', 'gt', 'gte'] as const;

function toCondition(path: string, condition: FieldCondition): unknown {
  if (isFilterValue(condition)) return condition;
  const keys = Object.keys(condition);
  const [key] = keys;
  if (keys.length === 1 && key !== undefined) {
    const value = (condition as Readonly<Record<string, unknown>>)[key];
    if ((COMPARISONS as readonly string[]).includes(key) && isFilterValue(value)) return { [`$${key}`]: value };
    if (key === 'in' && Array.isArray(value) && value.every(isFilterValue)) return { $in: value };
    if (key === 'prefix' && typeof value === 'string') return { $regex: `^${escapeRegExp(value)}` };
  }
  throw new InvariantError(
    `root filter on ${path} has an unsupported condition ${quoteCondition(condition)}: give a value (equal to it), or one of { ne | lt | lte | gt | gte: value }, { in: [values] } or { prefix: "text" }, not MongoDB operators`,
  );
}

/** The condition as a resolver wrote it, for its error: its keys only (`{ "$lt" }`), as a value may be a user's. */
function quoteCondition(condition: unknown): string {
  if (typeof condition !== 'object' || condition === null) return String(condition);
  return `{ ${Object.keys(condition).map((key) => JSON.stringify(key)).join(', ')} }`;
}

/** A literal prefix: every character a regular expression treats specially is escaped. */
function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|\/-]/g, '\\$&');
}

function isFilterValue(value: unknown): value is FilterValue {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value) || value instanceof Date || isObjectId(value) || isBsonNumber(value);
}

/** Every defined condition at once; undefined when none is. */
export function allOf(conditions: ReadonlyArray<StoredDocument | undefined>): StoredDocument | undefined {
  const defined = conditions.filter((condition): condition is StoredDocument => condition !== undefined);
  return defined.length === 0 ? undefined : defined.length === 1 ? defined[0] : { $and: defined };
}
