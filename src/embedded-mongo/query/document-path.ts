import { isPlainDocument } from './bson-kind';

/**
 * The values a dotted path reaches in a document, as MongoDB's query matcher sees them: arrays met
 * before the last segment are traversed element by element (documents only; nested arrays are not
 * descended), a numeric segment indexes into an array, and a missing field reads as `undefined`.
 * The last value is returned as is; callers decide whether to also look inside it when it is an array
 * (MongoDB docs: "Query an Array of Embedded Documents", "Query on Embedded/Nested Documents").
 */
export function resolvePath(doc: unknown, parts: readonly string[]): unknown[] {
  if (parts.length === 1 && isPlainDocument(doc)) return [doc[parts[0] as string]];
  const out: unknown[] = [];
  collect(doc, parts, 0, out);
  return out;
}

function collect(value: unknown, parts: readonly string[], index: number, out: unknown[]): void {
  if (index === parts.length) {
    out.push(value);
    return;
  }
  const part = parts[index] as string;
  if (Array.isArray(value)) {
    if (isArrayIndex(part)) {
      collect(value[Number(part)], parts, index + 1, out);
      return;
    }
    for (const element of value) {
      if (isPlainDocument(element)) collect(element, parts, index, out);
    }
    return;
  }
  if (isPlainDocument(value)) {
    collect(value[part], parts, index + 1, out);
    return;
  }
  out.push(undefined);
}

export function isArrayIndex(part: string): boolean {
  return /^\d+$/.test(part);
}

