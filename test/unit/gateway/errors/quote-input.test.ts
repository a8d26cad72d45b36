import { cutInput, MAX_QUOTED_CHARACTERS, quoteInput } from '../../../../src/gateway/errors/quote-input';

describe('quoteInput', () => {
  it('quotes a short value whole, as JSON (a bigint with its n)', () => {
    expect(quoteInput('abc')).toBe('"abc"');
    expect(quoteInput({ $gt: '' })).toBe('{"$gt":""}');
    expect(quoteInput(12n)).toBe('12n');
    expect(quoteInput(undefined)).toBe('undefined');
  });

  it('cuts a long value after MAX_QUOTED_CHARACTERS and gives its length', () => {
    const quoted = quoteInput('a'.repeat(100_000));
    expect(quoted).toBe(`"${'a'.repeat(MAX_QUOTED_CHARACTERS - 1)}… (100,002 characters)`);
  });

  it('leaves text of exactly MAX_QUOTED_CHARACTERS whole', () => {
    const text = 'x'.repeat(MAX_QUOTED_CHARACTERS);
    expect(cutInput(text)).toBe(text);
    expect(cutInput(`${text}y`)).toBe(`${text}… (${MAX_QUOTED_CHARACTERS + 1} characters)`);
  });
});
