import type { Document } from 'bson';
import { CommandError } from '../protocol/command-error';
import { isPlainDocument } from './bson-kind';
import { regexParts } from '../../bson/bson-text';
import { cloneDocument } from './clone-document';

/**
 * The document an upsert starts from: the filter's equality conditions (MongoDB docs: "Upsert with
 * Operator Expressions" — `{ a: 1 }`, `{ a: { $eq: 1 } }`, `{ a: { $in: [1] } }`, conditions inside `$and`, dotted paths
 * as nested documents). Operators other than `$eq`, `$or`/`$nor` branches and regexes add nothing;
 * a single-branch `$or` counts like `$and`.
 */
export function upsertSeed(filter: Document | null | undefined): Document {
  const seed: Document = {};
  if (filter) collect(filter, seed);
  return cloneDocument(seed);
}

function collect(filter: Document, seed: Document): void {
  for (const key of Object.keys(filter)) {
    const condition: unknown = filter[key];
    if (key === '$and' || ((key === '$or') && Array.isArray(condition) && condition.length === 1)) {
      if (Array.isArray(condition)) for (const branch of condition) if (isPlainDocument(branch)) collect(branch, seed);
      continue;
    }
    if (key.startsWith('$')) continue;
    const value = equalityValue(condition);
    if (value.found) setSeedPath(seed, key, value.value);
  }
}

function equalityValue(condition: unknown): { found: boolean; value?: unknown } {
  if (regexParts(condition)) return { found: false };
  if (isPlainDocument(condition)) {
    const keys = Object.keys(condition);
    if (keys.length > 0 && (keys[0] as string).startsWith('$')) {
      if ('$eq' in condition && !regexParts(condition.$eq)) return { found: true, value: condition.$eq };
      // MongoDB rewrites a one-value $in to an equality before planning the upsert.
      const oneOf: unknown = condition.$in;
      if (Array.isArray(oneOf) && oneOf.length === 1 && !regexParts(oneOf[0])) return { found: true, value: oneOf[0] };
      return { found: false };
    }
  }
  return { found: true, value: condition };
}

function setSeedPath(seed: Document, path: string, value: unknown): void {
  const parts = path.split('.');
  let node: Document = seed;
  for (const part of parts.slice(0, -1)) {
    const next: unknown = node[part];
    if (next === undefined) {
      node[part] = {};
      node = node[part] as Document;
    } else if (isPlainDocument(next)) node = next;
    else throw notViable(path);
  }
  const field = parts[parts.length - 1] as string;
  if (field in node) throw notViable(path);
  node[field] = value;
}

function notViable(path: string): CommandError {
  return new CommandError(54, 'NotSingleValueField', `cannot infer query fields to set, path '${path}' is matched twice`);
}
