/** The longest piece of a client's input an error message repeats whole. */
export const MAX_QUOTED_CHARACTERS = 80;

/**
 * A value the client sent, as an error message quotes it: as JSON (a bigint as `12n`), a longer one cut
 * after MAX_QUOTED_CHARACTERS with its length. Bad input of a megabyte is not echoed back a megabyte long.
 */
export function quoteInput(value: unknown): string {
  if (typeof value === 'string') return value.length <= MAX_QUOTED_CHARACTERS ? JSON.stringify(value) : cutQuoted(JSON.stringify(value.slice(0, MAX_QUOTED_CHARACTERS)).slice(1, -1), value.length);
  return cutInput(typeof value === 'bigint' ? `${value}n` : (JSON.stringify(value) ?? String(value)));
}

/** Input text (a printed literal, a header) as an error message quotes it: past MAX_QUOTED_CHARACTERS, its start and its length. */
export function cutInput(text: string): string {
  if (text.length <= MAX_QUOTED_CHARACTERS) return text;
  return `${text.slice(0, MAX_QUOTED_CHARACTERS)}… (${characters(text.length)})`;
}

/**
 * A message with every quoted string in it longer than MAX_QUOTED_CHARACTERS cut as quoteInput cuts a
 * string: graphql-js repeats a bad variable's value whole (`Variable "$id" got invalid value "…"`).
 */
export function cutQuotedInputs(message: string): string {
  if (message.length <= 2 * MAX_QUOTED_CHARACTERS) return message;
  // Every quoted string is matched, from the left, so that quotes pair up as they were written; a string already cut ends in "…".
  return message.replace(QUOTED, (quoted, inner: string) => (inner.length > MAX_QUOTED_CHARACTERS && !inner.endsWith('…') ? cutQuoted(inner.slice(0, MAX_QUOTED_CHARACTERS), inner.length) : quoted));
}

/** A JSON string inside a message. */
const QUOTED = /"((?:[^"\\]|\\.)*)"/g;

function cutQuoted(start: string, length: number): string {
  return `"${start}…" (${characters(length)})`;
}

function characters(count: number): string {
  return `${count.toLocaleString('en')} characters`;
}
