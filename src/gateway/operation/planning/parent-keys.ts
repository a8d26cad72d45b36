import type { StoredDocument } from '../../documents/stored-document';

/**
 * The parent keys a child holds at `path`, each once, as an aggregation expression, for a `$group` by
 * parent: the value alone, or the elements of an array there, as MongoDB's equality matches them (an
 * array reached through an array, `credits.authorIds`, flattened a level). A child listing a parent
 * twice is one child of it.
 */
export function eachParentKeyOnce(path: string): StoredDocument {
  const asList = (value: string) => ({ $cond: [{ $isArray: value }, value, [value]] });
  // A top-level array is the keys themselves: an array inside it names no parent, as MongoDB's equality does not look into it.
  if (!path.includes('.')) return { $setUnion: [asList(`$${path}`)] };
  return { $reduce: { input: asList(`$${path}`), initialValue: [], in: { $setUnion: ['$$value', asList('$$this')] } } };
}
