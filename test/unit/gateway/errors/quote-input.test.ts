import { cutInput, cutQuotedInputs, MAX_QUOTED_CHARACTERS, quoteInput } from '../../../../src/gateway/errors/quote-input';

describe('quoteInput', () => {
  it('quotes a short value whole, as JSON (a bigint with its n)', () => {
    expect(quoteInput('abc')).toBe('"abc"');
    expect(quoteInput({ $gt: '' })).toBe('{"$gt":""}');
    expect(quoteInput(12n)).toBe('12n');
    expect(quoteInput(undefined)).toBe('undefined');
  });

  it('cuts a long string after MAX_QUOTED_CHARACTERS, inside its quotes, and gives its own length', () => {
    expect(quoteInput('a'.repeat(100_000))).toBe(`"${'a'.repeat(MAX_QUOTED_CHARACTERS)}…" (100,000 characters)`);
    expect(quoteInput('a'.repeat(MAX_QUOTED_CHARACTERS))).toBe(`"${'a'.repeat(MAX_QUOTED_CHARACTERS)}"`);
  });

  it('cuts another long value as JSON text, with the length of that text', () => {
    const list = Array.from({ length: 100 }, (_, index) => index);
    const json = JSON.stringify(list);
    expect(quoteInput(list)).toBe(`${json.slice(0, MAX_QUOTED_CHARACTERS)}… (${json.length} characters)`);
  });

  it('leaves text of exactly MAX_QUOTED_CHARACTERS whole', () => {
    const text = 'x'.repeat(MAX_QUOTED_CHARACTERS);
    expect(cutInput(text)).toBe(text);
    expect(cutInput(`${text}y`)).toBe(`${text}… (${MAX_QUOTED_CHARACTERS + 1} characters)`);
  });
});

describe('cutQuotedInputs', () => {
  it("cuts each long quoted string of a message, as graphql-js's variable errors repeat the value", () => {
    const value = 'z'.repeat(5000);
    const message = `Variable "$d" got invalid value "${value}"; DateTime must be an ISO-8601 string, got "${value}"`;
    const cut = `"${'z'.repeat(MAX_QUOTED_CHARACTERS)}…" (5,000 characters)`;
    expect(cutQuotedInputs(message)).toBe(`Variable "$d" got invalid value ${cut}; DateTime must be an ISO-8601 string, got ${cut}`);
  });

  it('leaves short quoted strings, escapes included, as they are', () => {
    const message = `Field "x" of required type "String!" was not provided. ${'padding '.repeat(30)}"a \\"quoted\\" word"`;
    expect(cutQuotedInputs(message)).toBe(message);
  });
});
