import type { StoredDocument } from '../../documents/stored-document';

/**
 * The parent keys a child holds at `path`, each once, as an aggregation expression, for a `$group` by
 * parent: the keys MongoDB's equality on `path` matches. Down the path, an array of documents is looked
 * into (`credits.authorIds` reads each credit's), an array inside an array is not; at the end, the value
 * itself, or each element of an array there, but not what an array inside it holds. A child listing a
 * parent twice is one child of it.
 */
export function eachParentKeyOnce(path: string): StoredDocument {
  const [first, ...rest] = path.split('.');
  return { $setUnion: [keysAt(`$${first}`, rest, 0)] };
}

/** The keys under `value` (an expression for a stored value) along the path's `rest`. */
function keysAt(value: string, rest: readonly string[], depth: number): StoredDocument {
  if (rest.length === 0) return { $cond: [{ $isArray: value }, value, [value]] };
  const [next, ...after] = rest;
  const element = `element${depth}`;
  const ofEachElement = {
    $map: { input: value, as: element, in: { $cond: [{ $isArray: `$$${element}` }, [], keysAt(`$$${element}.${next}`, after, depth + 1)] } },
  };
  return {
    $cond: [{ $isArray: value }, { $reduce: { input: ofEachElement, initialValue: [], in: { $setUnion: ['$$value', '$$this'] } } }, keysAt(`${value}.${next}`, after, depth + 1)],
  };
}
