/** Binary (UTF-8 byte) order, which equals code point order; JS `<` compares UTF-16 units instead. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      // a surrogate (an astral code point) sorts after U+E000..U+FFFF although its code unit is smaller
      const xSurrogate = x <= 0xdfff;
      const ySurrogate = y <= 0xdfff;
      if (xSurrogate !== ySurrogate) return xSurrogate ? 1 : -1;
    }
    return x < y ? -1 : 1;
  }
  return a.length < b.length ? -1 : 1;
}
