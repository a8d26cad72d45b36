/** The longest piece of a client's input an error message repeats whole. */
export const MAX_QUOTED_CHARACTERS = 80;

/**
 * A value the client sent, as an error message quotes it: as JSON (a bigint as `12n`), cut by
 * cutInput. Bad input of a megabyte is not echoed back a megabyte long.
 */
export function quoteInput(value: unknown): string {
  return cutInput(typeof value === 'bigint' ? `${value}n` : (JSON.stringify(value) ?? String(value)));
}

/** Input text (a printed literal, a header) as an error message quotes it: past MAX_QUOTED_CHARACTERS, its start and its length. */
export function cutInput(text: string): string {
  if (text.length <= MAX_QUOTED_CHARACTERS) return text;
  return `${text.slice(0, MAX_QUOTED_CHARACTERS)}… (${text.length.toLocaleString('en')} characters)`;
}
