import { badUserInput } from '../errors/public-error-code';
import { isPlainObject } from './stored-document';

/** The levels of nesting MongoDB keeps in a stored document (each object or array is one). */
export const MAX_STORED_NESTING = 100;

/**
 * Refuses (BAD_USER_INPUT) a value a client gave as it is (a JSON scalar's) that MongoDB cannot store:
 * a field name holding a NUL character, a plain object with a `_bsontype` field (the BSON serializer
 * reads that as a BSON type's marker and stops), or nesting past MAX_STORED_NESTING once stored
 * `levelsAbove` deep. `where` names the input, `path` the value's place in the document.
 */
export function refuseUnstorableValue(value: unknown, where: string, path: string, levelsAbove: number): void {
  const problem = unstorable(value, path, levelsAbove, path);
  if (problem) throw badUserInput(`${where} cannot be stored: ${problem}`, { argumentName: where });
}

/** What keeps MongoDB from storing `value`, found at `path`; the depth is reported at `root`, where the value starts (a path 100 levels long says little). */
function unstorable(value: unknown, path: string, levelsAbove: number, root: string): string | undefined {
  const array = Array.isArray(value);
  if (!array && !isPlainObject(value)) return undefined;
  const level = levelsAbove + 1;
  if (level > MAX_STORED_NESTING) return `"${root}" nests deeper than the ${MAX_STORED_NESTING} levels MongoDB keeps in a document`;
  const entries: [string, unknown][] = array ? value.map((item, index) => [String(index), item]) : Object.entries(value);
  for (const [name, item] of entries) {
    if (name.includes('\u0000')) return `"${path}" holds a field name with a NUL character`;
    if (!array && name === '_bsontype') return `"${path}" holds a field named _bsontype, which BSON reserves`;
    const inside = unstorable(item, `${path}.${name}`, level, root);
    if (inside) return inside;
  }
  return undefined;
}
