import { Decimal128, Long } from 'bson';
import { GraphQLScalarType, Kind, print, type ValueNode } from 'graphql';
import { bsonType } from '../../documents/bson-type';
import { badUserInput } from '../../errors/public-error-code';
import { cutInput, quoteInput } from '../../errors/quote-input';
import { atLiteral } from './literal-error';

const DECIMAL_DESCRIPTION = 'An exact decimal number (BSON Decimal128, 34 significant digits), as a string: `"19.99"`.';
const LONG_DESCRIPTION = 'A 64-bit integer (BSON long), as a string: JSON numbers are exact only up to 2^53.';

/**
 * Strings on the wire, Decimal128 in MongoDB: money and other figures that a double would round. A
 * number literal in the query is read from its digits as written. A JSON number (a variable) arrives as
 * the double JSON.parse made of it: one whose shortest form needs more than 15 significant digits is
 * refused; more digits that rounded to a shorter double cannot be seen, which is why the wire form is a string. docjoin binds it to a schema's `Decimal`
 * unless the resolvers give their own.
 */
export const DecimalScalar = new GraphQLScalarType<Decimal128, string>({
  name: 'Decimal',
  description: DECIMAL_DESCRIPTION,
  serialize(value) {
    if (isDecimal128(value) || isLong(value) || typeof value === 'bigint') return value.toString();
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
    if (typeof value === 'string' && DECIMAL.test(value)) return value;
    throw new TypeError(`Decimal cannot represent ${quoteInput(value)}`);
  },
  parseValue(value) {
    if (typeof value === 'number' && Number.isFinite(value)) {
      // JSON.parse has already rounded a number to a double: past 15 significant digits its text may not be what the client sent.
      if (significantDigits(String(value)) > MAX_EXACT_DOUBLE_DIGITS) throw badUserInput(`Decimal must be sent as a string when it has more than ${MAX_EXACT_DOUBLE_DIGITS} significant digits (a JSON number is read as a double, which rounds it), got ${quoteInput(value)}`);
      return parseDecimal(String(value));
    }
    if (typeof value !== 'string') throw badUserInput(`Decimal must be a string like "19.99", got ${quoteInput(value)}`);
    return parseDecimal(value);
  },
  parseLiteral(ast) {
    return atLiteral(ast, () => parseDecimal(literalDigits(ast, 'Decimal', 'a string like "19.99"')));
  },
});

/**
 * Strings on the wire, BSON longs in MongoDB. Input may also be an integer JSON number within 2^53.
 * docjoin binds it to a schema's `Long` unless the resolvers give their own.
 */
export const LongScalar = new GraphQLScalarType<Long, string>({
  name: 'Long',
  description: LONG_DESCRIPTION,
  serialize(value) {
    if (isLong(value) || typeof value === 'bigint') return value.toString();
    // The driver reads a long up to 2^53 as a number; a sum past 64 bits comes back as a double, no longer exact.
    if (isExactInteger(value)) return String(value);
    const whole = isDecimal128(value) || typeof value === 'string' ? wholeNumberOf(value.toString()) : undefined;
    if (whole !== undefined && whole >= LONG_MIN && whole <= LONG_MAX) return whole.toString();
    throw new TypeError(`Long cannot represent ${quoteInput(value)} exactly`);
  },
  parseValue(value) {
    if (typeof value === 'number' && Number.isSafeInteger(value)) return Long.fromNumber(value);
    if (typeof value !== 'string') throw badUserInput(`Long must be a string of digits like "9007199254740993" (or an integer below 2^53), got ${quoteInput(value)}`);
    return parseLong(value);
  },
  parseLiteral(ast) {
    return atLiteral(ast, () => {
      if (ast.kind === Kind.FLOAT) throw badUserInput(`Long must be a whole number, got ${cutInput(print(ast))}`);
      return parseLong(literalDigits(ast, 'Long', 'a string of digits like "9007199254740993"'));
    });
  },
});

/** The scalars' definitions, each added to an SDL that uses it without defining it. */
export const exactNumberTypeDefs: Readonly<Record<'Decimal' | 'Long', string>> = {
  Decimal: `${JSON.stringify(DECIMAL_DESCRIPTION)}\nscalar Decimal\n`,
  Long: `${JSON.stringify(LONG_DESCRIPTION)}\nscalar Long\n`,
};

const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
/** Every decimal of at most 15 significant digits survives a trip through a double. */
const MAX_EXACT_DOUBLE_DIGITS = 15;
const INTEGER = /^[+-]?\d+$/;

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

/** A decimal's text (`70`, `7.0E+1`, `700E-1`, as Decimal128 prints it) as the whole number it is; undefined when it has a fraction or is no number. */
function wholeNumberOf(text: string): bigint | undefined {
  const parts = /^([+-]?)(\d+)(?:\.(\d*))?(?:E([+-]?\d+))?$/i.exec(text);
  if (!parts) return undefined;
  const [, sign, integer, fraction = '', exponentText = '0'] = parts;
  const exponent = Number(exponentText) - fraction.length;
  const digits = BigInt(`${sign}${integer}${fraction}`);
  // A non-zero number past 10^40 is no Long's: it is not built.
  if (exponent >= 0) return digits !== 0n && exponent > 40 ? undefined : digits * 10n ** BigInt(Math.min(exponent, 40));
  const scale = 10n ** BigInt(-exponent);
  return digits % scale === 0n ? digits / scale : undefined;
}

function parseDecimal(text: string): Decimal128 {
  if (!DECIMAL.test(text)) throw badUserInput(`Decimal must be a decimal number like "19.99", got ${quoteInput(text)}`);
  try {
    return Decimal128.fromString(text);
  } catch {
    throw badUserInput(`Decimal cannot hold ${quoteInput(text)} exactly (34 significant digits, exponents -6176 to 6111)`);
  }
}

function parseLong(text: string): Long {
  const trimmed = text.replace(/\.0*$/, '');
  if (!INTEGER.test(trimmed)) throw badUserInput(`Long must be a whole number like "9007199254740993", got ${quoteInput(text)}`);
  const value = BigInt(trimmed);
  if (value < LONG_MIN || value > LONG_MAX) throw badUserInput(`Long must be between ${LONG_MIN} and ${LONG_MAX}, got ${cutInput(trimmed)}`);
  return Long.fromBigInt(value);
}

/** The significant digits of a number's text (`"0.0120"` has 2, `"1.5e+21"` 2, `"12000"` 2). */
function significantDigits(text: string): number {
  const mantissa = text.replace(/^[+-]/, '').split(/[eE]/)[0]!;
  return mantissa.replace('.', '').replace(/^0+/, '').replace(/0+$/, '').length;
}

/** A literal's digits as written: a string, or an Int or Float literal (never rounded through a double). */
function literalDigits(ast: ValueNode, name: string, expected: string): string {
  if (ast.kind === Kind.STRING || ast.kind === Kind.INT || ast.kind === Kind.FLOAT) return ast.value;
  throw badUserInput(`${name} must be ${expected}, got ${cutInput(print(ast))}`);
}

/** A whole number a double holds exactly, up to 2^53: the driver reads a long that small into one. */
function isExactInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= 2 ** 53;
}

// By BSON type, not class: a driver with a copy of bson of its own makes other classes.
function isLong(value: unknown): value is Long {
  return bsonType(value) === 'Long';
}

function isDecimal128(value: unknown): value is Decimal128 {
  return bsonType(value) === 'Decimal128';
}
