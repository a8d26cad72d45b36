import type { Document } from 'bson';
import { isPlainDocument } from './bson-kind';
import { expressionTruth } from './expression-truth';
import { FIELD_PATH_OPERATOR, valueAtFieldPath } from './field-path';
import { arrayEndValue, condOperands } from './mingo-context';

/*
 * A few aggregation expressions as plain functions, for the stages that evaluate one per document: field
 * paths, constants, `$literal`, `$cond`, `$isArray` and `$first` — what the gateway's lookups compute
 * (the first key of a reference). They read their operands and answer as our overrides of mingo's
 * operators do (mingo-context.ts), failing with the same errors; mingo evaluates every other expression,
 * and a malformed one of these, which it refuses.
 */

type Compiled = (doc: Document) => unknown;

/** `expression` evaluated by a compiled function where it can be, else by `evaluate` (mingo, with the stage's variables). */
export function compiledOr(expression: unknown, evaluate: (doc: Document, expression: unknown) => unknown): (doc: Document) => unknown {
  return compileExpression(expression) ?? ((doc) => evaluate(doc, expression));
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
      return withSingleArgument(operand, (argument) => (doc) => Array.isArray(argument(doc)));
    case '$first':
      return withSingleArgument(operand, (argument) => (doc) => arrayEndValue('$first', argument(doc), (array) => array[0]));
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

/** `$cond` in its list form or its `if`/`then`/`else` form; only the branch taken is evaluated. */
function compileCond(operand: unknown): Compiled | undefined {
  let operands: unknown[];
  try {
    operands = condOperands(operand);
  } catch {
    return undefined; // malformed: mingo refuses it when a document reaches it, as it did before
  }
  const [test, then, otherwise] = operands.map(compileExpression);
  if (!test || !then || !otherwise) return undefined;
  return (doc) => (expressionTruth(test(doc)) ? then(doc) : otherwise(doc));
}
