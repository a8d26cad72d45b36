import { serialize, type Document } from 'bson';

/** Byte equality of two documents: same fields, same order, same BSON types (1 and 1.0 differ). */
export function sameBson(a: Document, b: Document): boolean {
  return Buffer.compare(serialize(a), serialize(b)) === 0;
}
