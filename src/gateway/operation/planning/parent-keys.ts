import type { StoredDocument } from '../../documents/stored-document';

/**
 * The parent keys a child holds at `path`, each once, as an aggregation expression, for a `$group` by
 * parent: the value alone, or the elements of an array there, as MongoDB's equality matches them (an
 * array reached through an array, `credits.authorIds`, flattened a level). A child listing a parent
 * twice is one child of it.
 */
export function eachParentKeyOnce(path: string): StoredDocument {
  const asList = (value: string) => ({ $cond: [{ $isArray: value }, value, [value]] });
  return { $reduce: { input: asList(`$${path}`), initialValue: [], in: { $setUnion: ['$$value', asList('$$this')] } } };
}
