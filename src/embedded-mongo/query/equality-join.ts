import type { Document } from 'bson';
import { regexParts } from '../../bson/bson-text';
import { isOperatorShaped } from './bson-kind';
import { resolvePath } from './document-path';

/*
 * MongoDB's `$lookup` by localField/foreignField (DocumentSourceLookUp::makeMatchStageFromInput):
 * the parent's values at localField, then the foreign documents one filter on foreignField matches.
 * Every way the embedded server runs such a lookup (a hash join over the collection or over an
 * index's candidates, a page per parent read from storage) decides through these two functions.
 */

/**
 * The values a parent joins by (document_path_support::visitAllValuesAtPath): arrays on the path
 * are walked into their documents, an array at its end gives its elements (a nested array stays
 * whole), a missing value gives nothing; when nothing is left, null.
 */
export function localJoinValues(doc: Document, localParts: readonly string[]): unknown[] {
  // Loops, not flatMap and filter: a lookup calls this once per parent, where V8's generic flatMap was most of its time.
  const values: unknown[] = [];
  for (const value of resolvePath(doc, localParts)) {
    if (!Array.isArray(value)) {
      if (value !== undefined) values.push(value);
      continue;
    }
    for (const element of value as unknown[]) if (element !== undefined) values.push(element);
  }
  return values.length === 0 ? [null] : values;
}

/**
 * The filter a parent's foreign documents match: `$in` of its values, as MongoDB sends it; `$eq` per
 * value when one is a regex (which MongoDB compares as a value, not as a pattern) or has `$` fields
 * (which `$in` would read as operators).
 */
export function foreignJoinFilter(foreignField: string, values: readonly unknown[]): Document {
  if (!values.some((value) => regexParts(value) !== undefined || isOperatorShaped(value))) return { [foreignField]: { $in: [...values] } };
  return { $or: values.map((value) => ({ [foreignField]: { $eq: value } })) };
}

/**
 * The values an equality finds a document by at `parts`: each value there, whole, and each element
 * of an array (missing as null). A hash of these finds every document a join filter can match.
 */
export function equalityKeys(doc: Document, parts: readonly string[]): unknown[] {
  const keys: unknown[] = [];
  for (const value of resolvePath(doc, parts)) {
    keys.push(value === undefined ? null : value);
    if (Array.isArray(value)) keys.push(...(value as unknown[]));
  }
  return keys;
}
