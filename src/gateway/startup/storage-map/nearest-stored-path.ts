import { suggestionList } from 'graphql/jsutils/suggestionList';
import { isPlainObject, type StoredDocument } from '../../documents/stored-document';

/** How many documents are read for the paths a misspelt one could have meant. */
export const PATH_SAMPLE = { first: 20, random: 0 } as const;

/** Objects this deep inside a document are not followed. */
const MAX_DEPTH = 6;

/**
 * The path `documents` hold that is nearest `path` (which none of them holds), for a "did you mean":
 * among their field paths (through objects and the objects inside arrays), one as deep whose every
 * name is `path`'s or near it. `author.name` is no suggestion for `author.id`, nor `author` for it.
 */
export function nearestStoredPath(path: string, documents: readonly StoredDocument[]): string | undefined {
  const held = new Set<string>();
  for (const document of documents) collectPaths(document, '', 0, held);
  const names = path.split('.');
  const near = [...held].filter((candidate) => {
    const candidateNames = candidate.split('.');
    return candidateNames.length === names.length && candidateNames.every((name, at) => name === names[at] || suggestionList(names[at]!, [name]).length > 0);
  });
  return suggestionList(path, near)[0];
}

function collectPaths(value: unknown, prefix: string, depth: number, held: Set<string>): void {
  if (Array.isArray(value)) {
    for (const element of value) collectPaths(element, prefix, depth, held);
    return;
  }
  if (!isPlainObject(value) || depth >= MAX_DEPTH) return;
  for (const [name, inner] of Object.entries(value)) {
    const path = prefix === '' ? name : `${prefix}.${name}`;
    held.add(path);
    collectPaths(inner, path, depth + 1, held);
  }
}
