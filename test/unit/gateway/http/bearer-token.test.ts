import { bearerTokenMatches } from '../../../../src/gateway/http/bearer-token';

describe('bearerTokenMatches', () => {
  const token = '0123456789abcdef0123';

  it('accepts the token after the Bearer scheme, in any case, with spaces around it', () => {
    expect(bearerTokenMatches(`Bearer ${token}`, token)).toBe(true);
    expect(bearerTokenMatches(`bearer ${token}`, token)).toBe(true);
    expect(bearerTokenMatches(`BEARER  ${token} `, token)).toBe(true);
  });

  it('refuses no header, another scheme, another token, a prefix or an extension of it, and more than one credential', () => {
    expect(bearerTokenMatches(undefined, token)).toBe(false);
    expect(bearerTokenMatches('', token)).toBe(false);
    expect(bearerTokenMatches(token, token)).toBe(false);
    expect(bearerTokenMatches(`Basic ${token}`, token)).toBe(false);
    expect(bearerTokenMatches('Bearer 0123456789abcdef0124', token)).toBe(false);
    expect(bearerTokenMatches(`Bearer ${token.slice(0, -1)}`, token)).toBe(false);
    expect(bearerTokenMatches(`Bearer ${token}0`, token)).toBe(false);
    expect(bearerTokenMatches(`Bearer ${token} ${token}`, token)).toBe(false);
  });
});
