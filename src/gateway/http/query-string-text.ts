/**
 * Whether a query string's percent-escapes decode to UTF-8 text. URLSearchParams (which Apollo reads a
 * GET with) puts U+FFFD in place of bytes that are not, and the operation would run on other values
 * than the client sent; a `%` not followed by two hex digits is kept as it is, as it does.
 */
export function percentDecodesToText(search: string): boolean {
  try {
    decodeURIComponent(search.replace(/%(?![0-9a-fA-F]{2})/g, '%25'));
    return true;
  } catch {
    return false;
  }
}
