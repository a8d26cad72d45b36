/**
 * `text` as the Origin a browser sends for it (scheme and host in lower case, no default port, no
 * trailing slash): `HTTPS://App.example.com:443/` → `https://app.example.com`. Undefined when it is no
 * origin (a path, a query, another scheme than http and https).
 */
export function browserOrigin(text: string): string | undefined {
  if (!/^https?:\/\/[^/\s?#]+\/?$/i.test(text)) return undefined;
  try {
    return new URL(text).origin;
  } catch {
    return undefined;
  }
}
