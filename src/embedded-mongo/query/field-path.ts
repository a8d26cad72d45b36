import type { Document } from 'bson';
import { bsonTag, isPlainDocument } from './bson-kind';

/*
 * MongoDB's field path expressions, `"$a.b"` and `"$$v.a.b"` (ExpressionFieldPath::evaluatePath):
 * a document is read by field name, an array by reading the rest of the path in each element that is
 * a document (evaluatePathArray skips nested arrays and scalars, and leaves out elements where the
 * rest is missing), anything else ends the path as missing. mingo resolves field paths itself, with
 * no hook: it returns a nested array whole and reads a numeric part as an array index. So expressions
 * are rewritten before mingo sees them: each dotted path becomes a FIELD_PATH_OPERATOR expression.
 */

/** Our expression operator for a dotted field path: `{ [FIELD_PATH_OPERATOR]: ['$a', 'b', 'c'] }` is `"$a.b.c"`. */
export const FIELD_PATH_OPERATOR = '$docjoinFieldPath';

/** `expression` with every dotted field path rewritten (see above); `$literal` operands are left as they are. */
export function withMongoFieldPaths(expression: unknown): unknown {
  if (typeof expression === 'string') return fieldPathExpression(expression) ?? expression;
  if (Array.isArray(expression)) return expression.map(withMongoFieldPaths);
  if (!isPlainDocument(expression) || bsonTag(expression) !== undefined || '$literal' in expression) return expression;
  // A spread keeps the symbol marks stages put on their specs (PRESORTED).
  const rewritten: Document = { ...expression };
  for (const key of Object.keys(rewritten)) rewritten[key] = withMongoFieldPaths(rewritten[key]);
  return rewritten;
}

function fieldPathExpression(text: string): Document | undefined {
  const dot = text.indexOf('.');
  if (!text.startsWith('$') || dot === -1) return undefined;
  return { [FIELD_PATH_OPERATOR]: [text.slice(0, dot), ...text.slice(dot + 1).split('.')] };
}

/** The value of the path `parts` read from `start` (the document or variable its first part names). */
export function valueAtFieldPath(start: unknown, parts: readonly string[]): unknown {
  let value = start;
  for (const [index, part] of parts.entries()) {
    if (Array.isArray(value)) return valuesInElements(value, parts.slice(index));
    if (!isPlainDocument(value) || !Object.prototype.hasOwnProperty.call(value, part)) return undefined;
    value = value[part];
  }
  return value;
}

function valuesInElements(array: readonly unknown[], parts: readonly string[]): unknown[] {
  const values: unknown[] = [];
  for (const element of array) {
    if (!isPlainDocument(element)) continue;
    const value = valueAtFieldPath(element, parts);
    if (value !== undefined) values.push(value);
  }
  return values;
}
