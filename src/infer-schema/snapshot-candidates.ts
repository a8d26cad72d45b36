import type { Reference } from './find-references';
import { kindsOf, type ObjectShape } from './value-shape';

/**
 * A sub-document (or an array of them) holding exactly one reference, `key`, beside other fields:
 * perhaps a snapshot of the referenced document. Its `fields` are compared with the source's.
 */
export interface SnapshotCandidate {
  readonly collection: string;
  /** The sub-document's path from the document's root (`author`, `lines.product`). */
  readonly path: string;
  readonly key: string;
  readonly reference: Reference;
  /** The sub-document's other keys, in the order they were first seen. */
  readonly fields: readonly string[];
}

/** Where the draft keeps each candidate's source documents: by collection and path. */
export function candidateKey(collection: string, path: string): string {
  return `${collection}\u0000${path}`;
}

/**
 * The sub-documents worth comparing with a referenced collection: the parent of a single-valued
 * reference (`author.id`, not `tags.ids`), when that reference is the parent's only one, or its `id` /
 * `_id` (a copied comment keeps its own `_id` and its `postId`: it is a copy of the comment).
 */
export function snapshotCandidates(shapes: ReadonlyMap<string, ObjectShape>, references: readonly Reference[]): SnapshotCandidate[] {
  const byParent = new Map<string, Reference[]>();
  for (const reference of references) {
    const dot = reference.path.lastIndexOf('.');
    if (dot < 0 || reference.many) continue;
    const key = candidateKey(reference.collection, reference.path.slice(0, dot));
    byParent.set(key, [...(byParent.get(key) ?? []), reference]);
  }
  const candidates: SnapshotCandidate[] = [];
  for (const [, siblings] of byParent) {
    const identities = siblings.filter((sibling) => /\.(_id|id)$/.test(sibling.path));
    const reference = siblings.length === 1 ? siblings[0] : identities.length === 1 ? identities[0] : undefined;
    if (!reference) continue;
    const dot = reference.path.lastIndexOf('.');
    const path = reference.path.slice(0, dot);
    const key = reference.path.slice(dot + 1);
    const object = subDocumentShape(shapes.get(reference.collection), path);
    if (!object) continue;
    candidates.push({ collection: reference.collection, path, key, reference, fields: [...object.fields.keys()].filter((field) => field !== key) });
  }
  return candidates;
}

/** The merged shape of the sub-documents at `path` (through arrays of them); undefined where the path holds anything else too. */
export function subDocumentShape(shape: ObjectShape | undefined, path: string): ObjectShape | undefined {
  let current = shape;
  for (const segment of path.split('.')) {
    const value = current?.fields.get(segment);
    if (!value) return undefined;
    const kinds = kindsOf(value);
    if (kinds.length === 1 && kinds[0] === 'object') current = value.object;
    else if (kinds.length === 1 && kinds[0] === 'array' && value.elements && kindsOf(value.elements).join() === 'object') current = value.elements.object;
    else return undefined;
  }
  return current;
}
