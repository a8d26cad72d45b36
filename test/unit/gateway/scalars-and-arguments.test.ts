import { Kind, parseValue, type GraphQLError } from 'graphql';
import { Decimal128, Long } from 'bson';
import { DateTimeScalar, DecimalScalar, LongScalar } from 'docjoin';
import { objectIdArgument } from 'docjoin';
import { ContactDetail, contactDetailTypeName } from '../../../resolvers/contact-detail';
import type { ContactDetailDocument } from '../../../documents';
import { codeOf } from '../../support/graphql-error-code';

describe('DateTime', () => {
  it('serializes Dates as ISO strings and parses ISO strings to Dates', () => {
    expect(DateTimeScalar.serialize(new Date('2026-11-21T09:30:00Z'))).toBe('2026-11-21T09:30:00.000Z');
    expect(DateTimeScalar.parseValue('2026-11-21T09:30:00.000Z')).toEqual(new Date('2026-11-21T09:30:00.000Z'));
    expect(DateTimeScalar.parseLiteral({ kind: Kind.STRING, value: '2026-11-21' }, {})).toEqual(new Date('2026-11-21T00:00:00.000Z'));
  });
  it('answers a stored Date, or an ISO-8601 string, and refuses what it would have to guess: epoch numbers (seconds or milliseconds?) and loose text', () => {
    expect(DateTimeScalar.serialize('2026-11-21T09:30:00+01:00')).toBe('2026-11-21T08:30:00.000Z');
    for (const stored of [1700000000, 1700000000000, '03/04/2021', '2021', 'Tue Dec 01 2026', true, { $date: 1 }]) {
      expect(() => DateTimeScalar.serialize(stored)).toThrow(`DateTime cannot represent ${JSON.stringify(stored)}: it answers a stored date, or an ISO-8601 string like 2026-11-21T09:30:00.000Z`);
    }
  });

  it('rejects anything else as BAD_USER_INPUT', () => {
    expect(codeOf(() => DateTimeScalar.parseValue('yesterday'))).toEqual(['BAD_USER_INPUT', 'DateTime must be an ISO-8601 string like 2026-11-21T09:30:00.000Z, got "yesterday"']);
    expect(codeOf(() => DateTimeScalar.parseValue(1700000000000))).toEqual(['BAD_USER_INPUT', 'DateTime must be an ISO-8601 string like 2026-11-21T09:30:00.000Z, got 1700000000000']);
    expect(codeOf(() => DateTimeScalar.parseLiteral({ kind: Kind.INT, value: '5' }, {}))).toEqual(['BAD_USER_INPUT', 'DateTime must be an ISO-8601 string, got 5']);
  });
  it('rejects a date or time that does not exist, which Date would roll over (30 February to 2 March, 24:00 to the next day)', () => {
    for (const value of ['2026-02-30', '2026-02-29T00:00:00Z', '2026-13-01', '2026-04-31T10:00:00Z', '2026-01-01T24:00:00Z', '2026-01-01T23:60:00Z', '2026-01-01T23:59:60Z', '2026-01-01T10:00:00+24:00', '2026-00-10']) {
      expect([value, codeOf(() => DateTimeScalar.parseValue(value))]).toEqual([value, ['BAD_USER_INPUT', `DateTime must be an ISO-8601 string like 2026-11-21T09:30:00.000Z, got "${value}"`]]);
    }
    expect(DateTimeScalar.parseValue('2028-02-29T23:59:59.999+01:30')).toEqual(new Date('2028-02-29T22:29:59.999Z'));
    expect(DateTimeScalar.parseValue('2026-12-31')).toEqual(new Date('2026-12-31T00:00:00.000Z'));
  });
});

describe('Decimal', () => {
  it('writes every digit of a Decimal128, reads strings and number literals from their digits as written', () => {
    expect(DecimalScalar.serialize(Decimal128.fromString('1234567890123456789.01234567890120'))).toBe('1234567890123456789.01234567890120');
    expect(DecimalScalar.serialize(0)).toBe('0');
    expect(DecimalScalar.parseValue('19.99')).toEqual(Decimal128.fromString('19.99'));
    expect(DecimalScalar.parseLiteral({ kind: Kind.FLOAT, value: '0.30000000000000000001' }, {})!.toString()).toBe('0.30000000000000000001');
    expect(DecimalScalar.parseLiteral({ kind: Kind.INT, value: '7' }, {})!.toString()).toBe('7');
  });
  it('rejects what is no decimal, or more digits than a Decimal128 holds, as BAD_USER_INPUT', () => {
    expect(codeOf(() => DecimalScalar.parseValue('NaN'))).toEqual(['BAD_USER_INPUT', 'Decimal must be a decimal number like "19.99", got "NaN"']);
    expect(codeOf(() => DecimalScalar.parseValue(true))).toEqual(['BAD_USER_INPUT', 'Decimal must be a string like "19.99", got true']);
    expect(codeOf(() => DecimalScalar.parseValue('1.00000000000000000000000000000000001'))).toEqual([
      'BAD_USER_INPUT',
      'Decimal cannot hold "1.00000000000000000000000000000000001" exactly (34 significant digits, exponents -6176 to 6111)',
    ]);
    expect(codeOf(() => DecimalScalar.parseLiteral({ kind: Kind.BOOLEAN, value: true }, {}))).toEqual(['BAD_USER_INPUT', 'Decimal must be a string like "19.99", got true']);
  });
  it('reads a JSON number up to 15 significant digits, and refuses one a double may have rounded: it must come as a string', () => {
    expect([19.99, 0.012, 123456789012345, 1.5e21, -0.5].map((value) => DecimalScalar.parseValue(value).toString())).toEqual(['19.99', '0.012', '123456789012345', '1.5E+21', '-0.5']);
    // JSON.parse('12345678901234567890.12') is 12345678901234567000: the digits sent are gone.
    expect(codeOf(() => DecimalScalar.parseValue(JSON.parse('12345678901234567890.12')))).toEqual([
      'BAD_USER_INPUT',
      'Decimal must be sent as a string when it has more than 15 significant digits (a JSON number is read as a double, which rounds it), got 12345678901234567000',
    ]);
    expect((codeOf(() => DecimalScalar.parseValue(0.1 + 0.2)) as string[])[0]).toBe('BAD_USER_INPUT');
  });
});

describe('Long', () => {
  it('writes a 64-bit integer as a string, reads strings of digits and safe integers', () => {
    expect(LongScalar.serialize(Long.fromBigInt(2n ** 53n + 1n))).toBe('9007199254740993');
    expect(LongScalar.serialize(42)).toBe('42');
    expect(LongScalar.serialize(2n ** 62n)).toBe('4611686018427387904');
    expect(LongScalar.parseValue('-9223372036854775808')).toEqual(Long.fromBigInt(-(2n ** 63n)));
    expect(LongScalar.parseValue(12)).toEqual(Long.fromNumber(12));
    expect(LongScalar.parseLiteral({ kind: Kind.INT, value: '9007199254740993' }, {})!.toString()).toBe('9007199254740993');
  });
  it('refuses a double past 2^53 (a sum that overflowed 64 bits) rather than write it inexactly', () => {
    expect(() => LongScalar.serialize(2 ** 64)).toThrow('Long cannot represent 18446744073709552000 exactly');
    expect(() => LongScalar.serialize(1.5)).toThrow('Long cannot represent 1.5 exactly');
    // Stored data that is no long is the server's problem, not the client's: a plain error, not BAD_USER_INPUT.
    expect(() => LongScalar.serialize(Decimal128.fromString('1.5'))).toThrow(TypeError);
    expect(() => LongScalar.serialize(Decimal128.fromString('1.25E+1'))).toThrow(TypeError);
    expect(() => LongScalar.serialize(Decimal128.fromString('1E+19'))).toThrow(TypeError);
    // A whole number within 64 bits, however the Decimal128 writes it (a sum of decimals keeps their exponents).
    expect([Decimal128.fromString('1500'), Decimal128.fromString('1.5E+3'), Decimal128.fromString('15000E-1'), Decimal128.fromString('-7.0'), Decimal128.fromString('0E+50')].map((value) => LongScalar.serialize(value))).toEqual(['1500', '1500', '1500', '-7', '0']);
    expect(() => DecimalScalar.serialize('lots')).toThrow(TypeError);
  });
  it('rejects fractions, numbers out of range and unsafe JSON numbers as BAD_USER_INPUT', () => {
    expect(codeOf(() => LongScalar.parseValue('9223372036854775808'))).toEqual(['BAD_USER_INPUT', 'Long must be between -9223372036854775808 and 9223372036854775807, got 9223372036854775808']);
    expect(codeOf(() => LongScalar.parseValue('1.5'))).toEqual(['BAD_USER_INPUT', 'Long must be a whole number like "9007199254740993", got "1.5"']);
    expect(codeOf(() => LongScalar.parseValue(2 ** 53))).toEqual(['BAD_USER_INPUT', 'Long must be a string of digits like "9007199254740993" (or an integer below 2^53), got 9007199254740992']);
    expect(codeOf(() => LongScalar.parseValue(2 ** 60))).toEqual(['BAD_USER_INPUT', 'Long must be a string of digits like "9007199254740993" (or an integer below 2^53), got 1152921504606847000']);
    expect(codeOf(() => LongScalar.parseLiteral({ kind: Kind.FLOAT, value: '1.5' }, {}))).toEqual(['BAD_USER_INPUT', 'Long must be a whole number, got 1.5']);
  });
});

describe('a refused literal', () => {
  it('is located where the operation wrote it, for each scalar docjoin provides', () => {
    const refusalAt = (parse: () => unknown) => {
      try {
        parse();
      } catch (error) {
        return { code: (error as GraphQLError).extensions.code, locations: (error as GraphQLError).locations };
      }
      throw new Error('the literal was accepted');
    };
    const literal = (text: string) => parseValue(text);
    expect([
      refusalAt(() => DateTimeScalar.parseLiteral(literal('  "soon"'), {})),
      refusalAt(() => DecimalScalar.parseLiteral(literal(' true'), {})),
      refusalAt(() => LongScalar.parseLiteral(literal(' "1.5x"'), {})),
      refusalAt(() => LongScalar.parseLiteral(literal('   1.5'), {})),
    ]).toEqual([3, 2, 2, 4].map((column) => ({ code: 'BAD_USER_INPUT', locations: [{ line: 1, column }] })));
  });
});

describe('objectIdArgument', () => {
  it('accepts 24 hex digits and names a bad value', () => {
    expect(objectIdArgument('65A000000000000000000001').toHexString()).toBe('65a000000000000000000001');
    expect(codeOf(() => objectIdArgument('nope'))).toEqual(['BAD_USER_INPUT', 'id must be a 24-character hexadecimal ObjectId, got "nope"']);
    expect(codeOf(() => objectIdArgument('{"$ne":null}'))).toEqual(['BAD_USER_INPUT', 'id must be a 24-character hexadecimal ObjectId, got "{\\"$ne\\":null}"']);
  });
});

describe('ContactDetail', () => {
  it('resolves the member type by kind', () => {
    expect(ContactDetail.__resolveType({ kind: 'email', email: 'ada@example.com' })).toBe('EmailContact');
    expect(ContactDetail.__resolveType({ kind: 'phone', phone: '+1 555 0100' })).toBe('PhoneContact');
    expect(ContactDetail.__resolveType({ kind: 'social', network: 'mastodon', handle: '@ada' })).toBe('SocialContact');
  });

  it('fails the field, naming the kind, for a stored kind the schema does not know', () => {
    const handEdited = { kind: 'fax', number: '1' } as unknown as ContactDetailDocument;
    expect(codeOf(() => contactDetailTypeName(handEdited))).toEqual([undefined, 'Unknown contact detail kind "fax"']);
  });
});
