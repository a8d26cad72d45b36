import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether an Authorization header carries `expected` as its bearer token (the scheme in any case, as
 * RFC 7235 has it). Compared in constant time over digests, so neither the token's characters nor its
 * length can be timed.
 */
export function bearerTokenMatches(header: string | undefined, expected: string): boolean {
  const match = header === undefined ? null : /^bearer +(\S+) *$/i.exec(header);
  if (match === null) return false;
  return timingSafeEqual(digest(match[1]!), digest(expected));
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}
