import type { Document } from 'bson';
import { compareNumbers } from '../../bson/bson-number';
import { isNumeric, isPlainDocument } from './bson-kind';
import { FIELD_PATH_OPERATOR, valueAtFieldPath } from './field-path';

/*
 * A few aggregation expressions as plain functions, for the stages that evaluate one per document: field
 * paths, constants, `$literal`, `$cond`, `$isArray` and `$first` — what the gateway's lookups compute
 * (the first key of a reference). mingo evaluates every other expression, and these too where MongoDB
 * would fail: the compiled function then answers ASK_MINGO, so the error is the one mingo's operators
 * (and our overrides of them, mingo-context.ts) give.
 */

/** What a compiled expression answers when mingo must evaluate it instead. */
export const ASK_MINGO: unique symbol = Symbol('ask mingo');

type Compiled = (doc: Document) => unknown;

/** `expression` evaluated by a compiled function where it can be, else by `evaluate` (mingo, with the stage's variables). */
export function compiledOr(expression: unknown, evaluate: (doc: Document, expression: unknown) => unknown): (doc: Document) => unknown {
  const compiled = compileExpression(expression);
  if (compiled === undefined) return (doc) => evaluate(doc, expression);
  return (doc) => {
    const value = compiled(doc);
    return value === ASK_MINGO ? evaluate(doc, expression) : value;
  };
}

/** The expression as a function of the document (field paths rewritten by withMongoFieldPaths or not), or undefined. */
export function compileExpression(expression: unknown): Compiled | undefined {
  if (typeof expression === 'string') return expression.startsWith('$') ? fieldPath(expression.slice(1).split('.')) : () => expression;
  if (expression === null || typeof expression === 'boolean' || typeof expression === 'number') return () => expression;
  if (!isPlainDocument(expression)) return undefined;
  const names = Object.keys(expression);
  if (names.length !== 1) return undefined;
  const operand: unknown = expression[names[0]!];
  switch (names[0]) {
    case '$literal':
      return typeof operand === 'string' || typeof operand === 'number' || typeof operand === 'boolean' || operand === null ? () => operand : undefined;
    case FIELD_PATH_OPERATOR:
      return Array.isArray(operand) && operand.every((part) => typeof part === 'string') && typeof operand[0] === 'string' && operand[0].startsWith('$')
        ? fieldPath([(operand[0] as string).slice(1), ...(operand.slice(1) as string[])])
        : undefined;
    case '$isArray':
      return withSingleArgument(operand, (argument) => (doc) => {
        const value = argument(doc);
        return value === ASK_MINGO ? value : Array.isArray(value);
      });
    case '$first':
      return withSingleArgument(operand, (argument) => (doc) => firstElement(argument(doc)));
    case '$cond':
      return compileCond(operand);
    default:
      return undefined;
  }
}

/** A field path read from the document's own fields, MongoDB's way through arrays (field-path.ts); a variable (`$$…`) or an empty part is mingo's. */
function fieldPath(parts: readonly string[]): Compiled | undefined {
  if (parts.some((part) => part === '' || part.startsWith('$'))) return undefined;
  return (doc) => valueAtFieldPath(doc, parts);
}

/** An operator of one argument, written bare or as a list of one (`{ $first: '$a' }`, `{ $first: ['$a'] }`). */
function withSingleArgument(operand: unknown, build: (argument: Compiled) => Compiled): Compiled | undefined {
  if (Array.isArray(operand) && operand.length !== 1) return undefined;
  const argument = compileExpression(Array.isArray(operand) ? operand[0] : operand);
  return argument && build(argument);
}

/** MongoDB docs: "$first (array)": the first element; missing for an empty array, null for null or missing; anything else fails (mingo says how). */
function firstElement(value: unknown): unknown {
  if (Array.isArray(value)) return value.length > 0 ? value[0] : undefined;
  return value === null || value === undefined ? null : ASK_MINGO;
}

/** `$cond` in its list form or its `if`/`then`/`else` form; only the branch taken is evaluated. */
function compileCond(operand: unknown): Compiled | undefined {
  let parts: unknown[];
  if (Array.isArray(operand) && operand.length === 3) parts = operand;
  else if (isPlainDocument(operand) && Object.keys(operand).sort().join() === 'else,if,then') parts = [operand.if, operand.then, operand.else];
  else return undefined;
  const [test, then, otherwise] = parts.map(compileExpression);
  if (!test || !then || !otherwise) return undefined;
  return (doc) => {
    const truth = truthOf(test(doc));
    return truth === ASK_MINGO ? truth : truth ? then(doc) : otherwise(doc);
  };
}

function truthOf(value: unknown): boolean | typeof ASK_MINGO {
  return value === ASK_MINGO ? ASK_MINGO : expressionTruth(value);
}

/**
 * MongoDB's truth of a value (Value::coerceToBool): false, null, missing and a zero of any numeric
 * type are false; everything else is true, NaN, `""` and `[]` included.
 */
export function expressionTruth(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (typeof value === 'number') return value !== 0;
  return isNumeric(value) ? compareNumbers(value, 0) !== 0 : true;
}
