/**
 * GraphQL names for what a database calls its collections and fields: `log_messages` → type
 * `LogMessage`, root fields `logMessage` and `logMessages`; `first-name` → `first_name` (read with
 * `@path`). English plurals are guessed with a few rules, good enough for collection names.
 */

const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** Names a type may not take: GraphQL's and docjoin's own (the directives' enums, the connection plumbing). */
export const RESERVED_TYPE_NAMES: ReadonlySet<string> = new Set(['String', 'Int', 'Float', 'Boolean', 'ID', 'DateTime', 'Decimal', 'Long', 'Query', 'Mutation', 'Subscription', 'ReadStrategy', 'FilterOp', 'AccessAction', 'AccessMatch', 'AccessValue', 'PageInfo']);

const IRREGULAR_SINGULARS: Readonly<Record<string, string>> = { people: 'person', children: 'child', men: 'man', women: 'woman', mice: 'mouse', geese: 'goose', feet: 'foot', teeth: 'tooth', series: 'series', species: 'species', news: 'news', data: 'data', media: 'media' };

export function isGraphqlName(name: string): boolean {
  return GRAPHQL_NAME.test(name) && !name.startsWith('__');
}

/**
 * A field name for a stored key: the key itself when GraphQL accepts it, else the key with every other
 * character as `_` (`first-name` → `first_name`, `2fa` → `_2fa`, `__v` → `_v`).
 */
export function fieldNameOf(key: string): string {
  if (isGraphqlName(key)) return key;
  const replaced = key.replace(/[^_0-9A-Za-z]/g, '_').replace(/^_+/, '_');
  const name = /^[0-9]/.test(replaced) ? `_${replaced}` : replaced;
  return name === '' || name === '_' ? '_field' : name;
}

/** The words of a name: split at `_`, `-`, spaces, dots and lower-to-upper case changes. */
function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^0-9A-Za-z]+/)
    .filter((word) => word !== '');
}

export function pascalCase(name: string): string {
  // An all-capitals word is a word, not an acronym to keep: `PEOPLE` → `People`, `userID` → `UserId`.
  const joined = wordsOf(name)
    .map((word) => word[0]!.toUpperCase() + (word === word.toUpperCase() ? word.slice(1).toLowerCase() : word.slice(1)))
    .join('');
  return /^[0-9]/.test(joined) ? `_${joined}` : joined;
}

/** `log_messages` → `logMessages`; empty for a name without ASCII letters or digits (`заказы`), for the caller's fallback. */
export function camelCase(name: string): string {
  const pascal = pascalCase(name);
  if (pascal === '' || pascal.startsWith('_')) return pascal;
  return pascal[0]!.toLowerCase() + pascal.slice(1);
}

/** `people` → `person`, `categories` → `category`, `addresses` → `address`, `status` stays. */
export function singular(word: string): string {
  const lower = word.toLowerCase();
  const irregular = IRREGULAR_SINGULARS[lower];
  if (irregular !== undefined) return matchCase(word, irregular);
  if (/[^aeiou]ies$/i.test(word) && word.length > 4) return `${word.slice(0, -3)}${matchCase(word.slice(-3), 'y')}`;
  if (/(ss|sh|ch|x|z)es$/i.test(word)) return word.slice(0, -2);
  if (/(ss|us|is)$/i.test(word) || !/s$/i.test(word) || word.length < 3) return word;
  return word.slice(0, -1);
}

/** The singular of a name's last word: `logMessages` → `logMessage`. */
export function singularOfName(name: string): string {
  const words = wordsOf(name);
  const last = words.pop();
  if (last === undefined) return name;
  return [...words, singular(last)].join(' ');
}

/** A type's name from its collection's: `log_messages` → `LogMessage`, `people` → `Person`. */
export function typeNameOf(collection: string): string {
  return pascalCase(singularOfName(collection)) || 'Document';
}

/**
 * A relation's name from the key that holds it: `postId` → `post`, `task_ids` → `tasks`; undefined
 * when the key has no id suffix (the relation then takes the key's own name).
 */
export function relationNameOf(key: string): string | undefined {
  const match = /^(.+?)(_ids|_id|Ids|IDs|Id|ID)$/.exec(key);
  if (!match) return undefined;
  const base = camelCase(match[1]!);
  if (base === '' || base.startsWith('_')) return undefined;
  return /ids$/i.test(match[2]!) ? `${base}s` : base;
}

/** `base`, or `base2`, `base3`, … : the first not in `taken`, which it joins. */
export function uniqueName(base: string, taken: Set<string>): string {
  let name = base;
  for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
  taken.add(name);
  return name;
}

function matchCase(model: string, word: string): string {
  return model[0] === model[0]!.toUpperCase() ? word[0]!.toUpperCase() + word.slice(1) : word;
}
