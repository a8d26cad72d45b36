import { Decimal128, Double, Long } from 'bson';
import { bsonTag } from './bson-tag';

/**
 * Exact numbers across BSON's numeric types. A finite value is `coefficient × 10^exponent` with no
 * trailing zeros in the coefficient, so two equal values have equal representations whatever type
 * they came from (MongoDB docs: "Comparison/Sort Order" compares numbers by value, not by type).
 */
export type ExactNumber =
  | { readonly kind: 'nan' }
  | { readonly kind: 'infinity'; readonly negative: boolean }
  | { readonly kind: 'finite'; readonly coefficient: bigint; readonly exponent: number };

/** The numeric widths MongoDB distinguishes in arithmetic, narrowest first. */
export type NumericWidth = 'int' | 'long' | 'double' | 'decimal';

const NAN: ExactNumber = { kind: 'nan' };
const TWO_POW_52 = 2n ** 52n;

/** A Long's value without bson's `toBigInt`, which goes through a decimal string. */
export function longToBigInt(value: Long): bigint {
  return BigInt.asIntN(64, (BigInt(value.high) << 32n) | BigInt(value.low >>> 0));
}

export function numericWidth(value: unknown): NumericWidth | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && value >= -0x80000000 && value <= 0x7fffffff ? 'int' : 'double';
  if (typeof value !== 'object' || value === null) return undefined;
  switch (bsonTag(value)) {
    case 'Int32':
      return 'int';
    case 'Double':
      return 'double';
    case 'Long':
      return 'long';
    case 'Decimal128':
      return 'decimal';
    default:
      return undefined;
  }
}

/** A JS number for Int32/Double wrappers and plain numbers; undefined for Long/Decimal128. */
export function plainNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const tag = bsonTag(value);
  if (tag === 'Int32' || tag === 'Double') return (value as { value: number }).value;
  return undefined;
}

export function normalize(coefficient: bigint, exponent: number): ExactNumber {
  if (coefficient === 0n) return { kind: 'finite', coefficient: 0n, exponent: 0 };
  while (coefficient % 10n === 0n) {
    coefficient /= 10n;
    exponent += 1;
  }
  return { kind: 'finite', coefficient, exponent };
}

/** The exact binary value of a double, written in decimal. */
export function exactFromDouble(x: number): ExactNumber {
  if (Number.isNaN(x)) return NAN;
  if (!Number.isFinite(x)) return { kind: 'infinity', negative: x < 0 };
  if (Number.isSafeInteger(x)) return normalize(BigInt(x), 0);
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const biasedExponent = Number((bits >> 52n) & 0x7ffn);
  let mantissa = bits & (TWO_POW_52 - 1n);
  let power: number;
  if (biasedExponent === 0) {
    power = -1074; // subnormal
  } else {
    mantissa += TWO_POW_52;
    power = biasedExponent - 1075;
  }
  const signed = negative ? -mantissa : mantissa;
  if (power >= 0) return normalize(signed << BigInt(power), 0);
  // m × 2^-k = m × 5^k × 10^-k
  return normalize(signed * 5n ** BigInt(-power), power);
}

/** Parses decimal text; `keepScale` keeps trailing zeros (Decimal128 arithmetic preserves the exponent). */
export function exactFromDecimalString(text: string, keepScale = false): ExactNumber {
  const trimmed = text.trim();
  if (/^[-+]?nan$/i.test(trimmed)) return NAN;
  if (/^[-+]?inf(inity)?$/i.test(trimmed)) return { kind: 'infinity', negative: trimmed.startsWith('-') };
  const match = /^([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/.exec(trimmed);
  if (!match) return NAN;
  const [, sign, whole = '', fraction = '', exp = '0'] = match;
  const digits = `${whole}${fraction}` || '0';
  const coefficient = BigInt(digits) * (sign === '-' ? -1n : 1n);
  if (keepScale) return { kind: 'finite', coefficient, exponent: Number(exp) - fraction.length };
  return normalize(coefficient, Number(exp) - fraction.length);
}

/** The exact value of any numeric BSON value, or undefined for non-numbers. */
export function toExact(value: unknown): ExactNumber | undefined {
  const plain = plainNumber(value);
  if (plain !== undefined) return exactFromDouble(plain);
  if (typeof value === 'bigint') return normalize(value, 0);
  if (typeof value !== 'object' || value === null) return undefined;
  const tag = bsonTag(value);
  if (tag === 'Long') return normalize(longToBigInt(value as Long), 0);
  if (tag === 'Decimal128') return exactFromDecimalString((value as Decimal128).toString());
  return undefined;
}

/** A NaN of any numeric type (double, or Decimal128). */
export function isNaNNumber(value: unknown): boolean {
  const plain = plainNumber(value);
  if (plain !== undefined) return Number.isNaN(plain);
  return typeof value === 'object' && value !== null && bsonTag(value) === 'Decimal128' && toExact(value)?.kind === 'nan';
}

function rank(n: ExactNumber): number {
  if (n.kind === 'nan') return 0; // MongoDB orders NaN below every other number
  if (n.kind === 'infinity') return n.negative ? 1 : 3;
  return 2;
}

export function compareExact(a: ExactNumber, b: ExactNumber): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb || a.kind !== 'finite' || b.kind !== 'finite') return Math.sign(ra - rb);
  // Signs, then magnitudes (digits + exponent) decide most pairs without scaling by a power of ten.
  const signA = a.coefficient === 0n ? 0 : a.coefficient < 0n ? -1 : 1;
  const signB = b.coefficient === 0n ? 0 : b.coefficient < 0n ? -1 : 1;
  if (signA !== signB || signA === 0) return Math.sign(signA - signB);
  const magnitudeA = digitCount(a.coefficient) + a.exponent;
  const magnitudeB = digitCount(b.coefficient) + b.exponent;
  if (magnitudeA !== magnitudeB) return magnitudeA > magnitudeB ? signA : -signA;
  const common = Math.min(a.exponent, b.exponent);
  const left = a.coefficient * 10n ** BigInt(a.exponent - common);
  const right = b.coefficient * 10n ** BigInt(b.exponent - common);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Compares two numeric BSON values exactly; fast paths for the common same-kind cases. */
function digitCount(coefficient: bigint): number {
  return (coefficient < 0n ? -coefficient : coefficient).toString().length;
}

export function compareNumbers(a: unknown, b: unknown): number {
  const x = plainNumber(a);
  const y = plainNumber(b);
  if (x !== undefined && y !== undefined) {
    if (Number.isNaN(x) || Number.isNaN(y)) return Number.isNaN(x) ? (Number.isNaN(y) ? 0 : -1) : 1;
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const ea = toExact(a);
  const eb = toExact(b);
  if (ea === undefined || eb === undefined) throw new TypeError('compareNumbers needs two numbers');
  return compareExact(ea, eb);
}

/** Decimal text of an exact number, e.g. "-12.5", "1E+40" style avoided: plain digits. */
export function exactToString(n: ExactNumber): string {
  if (n.kind === 'nan') return 'NaN';
  if (n.kind === 'infinity') return n.negative ? '-Infinity' : 'Infinity';
  const negative = n.coefficient < 0n;
  const digits = (negative ? -n.coefficient : n.coefficient).toString();
  const sign = negative ? '-' : '';
  if (n.exponent >= 0) return `${sign}${digits}${'0'.repeat(n.exponent)}`;
  const point = digits.length + n.exponent;
  if (point > 0) return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  return `${sign}0.${'0'.repeat(-point)}${digits}`;
}

function addExact(a: ExactNumber, b: ExactNumber): ExactNumber {
  if (a.kind === 'nan' || b.kind === 'nan') return NAN;
  if (a.kind === 'infinity' || b.kind === 'infinity') {
    if (a.kind === 'infinity' && b.kind === 'infinity' && a.negative !== b.negative) return NAN;
    return a.kind === 'infinity' ? a : b;
  }
  // IEEE 754-2008 decimal: the sum keeps the smaller exponent, the product the summed exponents
  const common = Math.min(a.exponent, b.exponent);
  return {
    kind: 'finite',
    coefficient: a.coefficient * 10n ** BigInt(a.exponent - common) + b.coefficient * 10n ** BigInt(b.exponent - common),
    exponent: common,
  };
}

function negateExact(n: ExactNumber): ExactNumber {
  if (n.kind === 'nan') return n;
  if (n.kind === 'infinity') return { kind: 'infinity', negative: !n.negative };
  return { kind: 'finite', coefficient: -n.coefficient, exponent: n.exponent };
}

function multiplyExact(a: ExactNumber, b: ExactNumber): ExactNumber {
  if (a.kind === 'nan' || b.kind === 'nan') return NAN;
  if (a.kind === 'infinity' || b.kind === 'infinity') {
    const zero = (n: ExactNumber): boolean => n.kind === 'finite' && n.coefficient === 0n;
    if (zero(a) || zero(b)) return NAN;
    const negA = a.kind === 'infinity' ? a.negative : a.coefficient < 0n;
    const negB = b.kind === 'infinity' ? b.negative : b.coefficient < 0n;
    return { kind: 'infinity', negative: negA !== negB };
  }
  return { kind: 'finite', coefficient: a.coefficient * b.coefficient, exponent: a.exponent + b.exponent };
}

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

function toDecimalOperand(value: unknown): ExactNumber {
  // MongoDB converts a double to Decimal128 by its shortest decimal form, not its exact binary value
  const plain = plainNumber(value);
  if (plain !== undefined) return exactFromDecimalString(String(plain), true);
  if (typeof value === 'object' && value !== null && bsonTag(value) === 'Decimal128') {
    return exactFromDecimalString((value as Decimal128).toString(), true);
  }
  return toExact(value) ?? NAN;
}

function widest(a: NumericWidth, b: NumericWidth): NumericWidth {
  const order: readonly NumericWidth[] = ['int', 'long', 'double', 'decimal'];
  return order[Math.max(order.indexOf(a), order.indexOf(b))] ?? 'decimal';
}

function toNumber(value: unknown): number {
  const plain = plainNumber(value);
  if (plain !== undefined) return plain;
  if (typeof value === 'object' && value !== null && bsonTag(value) === 'Long') return (value as Long).toNumber();
  if (typeof value === 'object' && value !== null && bsonTag(value) === 'Decimal128') return Number((value as Decimal128).toString());
  return Number.NaN;
}

function toBigInt(value: unknown): bigint {
  if (typeof value === 'object' && value !== null && bsonTag(value) === 'Long') return longToBigInt(value as Long);
  return BigInt(toNumber(value));
}

/** `n` as a Decimal128, rounded to 34 significant digits; past the largest one, Infinity of its sign, as MongoDB's arithmetic gives. */
function decimalFrom(n: ExactNumber): Decimal128 {
  if (n.kind === 'finite' && overflowsDecimal(n.coefficient < 0n ? -n.coefficient : n.coefficient, n.exponent)) return Decimal128.fromString(n.coefficient < 0n ? '-Infinity' : 'Infinity');
  return Decimal128.fromStringWithRounding(exactToString(n));
}

const DECIMAL_DIGITS = 34;
const DECIMAL_MAX_ADJUSTED_EXPONENT = 6144;

/** Whether `magnitude`·10^`exponent`, rounded half to even to 34 digits, is past 9.99…9E+6144. */
function overflowsDecimal(magnitude: bigint, exponent: number): boolean {
  if (magnitude === 0n) return false;
  const digits = magnitude.toString().length;
  const adjusted = exponent + digits - 1;
  if (adjusted !== DECIMAL_MAX_ADJUSTED_EXPONENT) return adjusted > DECIMAL_MAX_ADJUSTED_EXPONENT;
  if (digits <= DECIMAL_DIGITS) return false;
  // At the top exponent, rounding up 34 nines carries into a 35th digit; the tie rounds up too (…9 is odd).
  const dropped = 10n ** BigInt(digits - DECIMAL_DIGITS);
  return magnitude / dropped === 10n ** BigInt(DECIMAL_DIGITS) - 1n && (magnitude % dropped) * 2n >= dropped;
}

/**
 * `a + b` or `a × b` with MongoDB's result type: the wider operand type wins (int < long < double <
 * decimal); int32 overflow becomes Long, Long overflow a double (as `$sum` does); Decimal128 results
 * are exact up to Decimal128's 34 digits. An integral JS number within int32 counts as an int32,
 * because that is how the serializer writes it.
 */
export function arithmetic(operation: 'add' | 'subtract' | 'multiply', a: unknown, b: unknown): unknown {
  const wa = numericWidth(a);
  const wb = numericWidth(b);
  if (wa === undefined || wb === undefined) throw new TypeError('arithmetic needs two numbers');
  const width = widest(wa, wb);
  const onBigInts = (x: bigint, y: bigint): bigint => (operation === 'add' ? x + y : operation === 'subtract' ? x - y : x * y);
  switch (width) {
    case 'int': {
      // int32 results that overflow become Long (and double beyond int64), as MongoDB promotes them
      const exact = onBigInts(BigInt(toNumber(a)), BigInt(toNumber(b)));
      if (exact >= -0x80000000n && exact <= 0x7fffffffn) return Number(exact);
      return exact >= INT64_MIN && exact <= INT64_MAX ? Long.fromBigInt(exact) : Number(exact);
    }
    case 'double': {
      const x = toNumber(a);
      const y = toNumber(b);
      return asDouble(operation === 'add' ? x + y : operation === 'subtract' ? x - y : x * y);
    }
    case 'long': {
      const result = onBigInts(toBigInt(a), toBigInt(b));
      if (result < INT64_MIN || result > INT64_MAX) return Number(result);
      return Long.fromBigInt(result);
    }
    case 'decimal': {
      const x = toDecimalOperand(a);
      const y = toDecimalOperand(b);
      if (operation === 'multiply') return decimalFrom(multiplyExact(x, y));
      return decimalFrom(addExact(x, operation === 'add' ? y : negateExact(y)));
    }
    default: {
      const unreachable: never = width;
      return unreachable;
    }
  }
}

/**
 * A double result that happens to be integral would be written as Int32 by the serializer; the
 * Double wrapper keeps its BSON type (`2.5 × 2` is the double 5 in MongoDB).
 */
export function asDouble(value: number): number | Double {
  return Number.isInteger(value) && value >= -0x80000000 && value <= 0x7fffffff ? new Double(value) : value;
}

/** Canonical text for equal numbers of any type: exact integers as digits, others by exact value. */
export function numberKey(value: unknown): string {
  const plain = plainNumber(value);
  if (plain !== undefined && Number.isSafeInteger(plain)) return `i${plain === 0 ? 0 : plain}`;
  if (typeof value === 'object' && value !== null && bsonTag(value) === 'Long') return `i${(value as Long).toString()}`;
  const exact = toExact(value);
  if (exact === undefined) return 'nan';
  if (exact.kind !== 'finite') return exact.kind === 'nan' ? 'nan' : exact.negative ? '-inf' : 'inf';
  if (exact.exponent >= 0) return `i${exact.coefficient * 10n ** BigInt(exact.exponent)}`;
  return `f${exact.coefficient}e${exact.exponent}`;
}

/**
 * `$abs` with MongoDB's result type: int32 stays int32 (its minimum becomes a Long), Long stays Long
 * (its minimum has no absolute value: error 28680), doubles stay doubles, Decimal128 drops its sign.
 */
export function absoluteValue(value: unknown): unknown {
  const width = numericWidth(value);
  switch (width) {
    case undefined:
      throw new TypeError('absoluteValue needs a number');
    case 'int': {
      const n = toNumber(value);
      return n === -0x80000000 ? Long.fromNumber(0x80000000) : Math.abs(n);
    }
    case 'double':
      return asDouble(Math.abs(toNumber(value)));
    case 'long': {
      const n = toBigInt(value);
      if (n === INT64_MIN) throw new RangeError("can't take $abs of long long min");
      return Long.fromBigInt(n < 0n ? -n : n);
    }
    case 'decimal': {
      const text = (value as Decimal128).toString();
      return text.startsWith('-') ? Decimal128.fromString(text.slice(1)) : value;
    }
    default: {
      const unreachable: never = width;
      return unreachable;
    }
  }
}

/**
 * `$divide`: a double, or a Decimal128 when either operand is one (rounded to 34 digits); undefined
 * for a zero divisor (MongoDB fails: "can't $divide by zero").
 */
export function divide(a: unknown, b: unknown): unknown {
  const wa = numericWidth(a);
  const wb = numericWidth(b);
  if (wa === undefined || wb === undefined) throw new TypeError('divide needs two numbers');
  if (wa !== 'decimal' && wb !== 'decimal') {
    const divisor = toNumber(b);
    if (divisor === 0) return undefined;
    // Long operands beyond 2^53 lose precision here, as MongoDB's double division does too
    return asDouble(toNumber(a) / divisor);
  }
  const x = toDecimalOperand(a);
  const y = toDecimalOperand(b);
  if (y.kind === 'finite' && y.coefficient === 0n) return undefined;
  if (x.kind !== 'finite' || y.kind !== 'finite') return Decimal128.fromString(String(toNumber(a) / toNumber(b)));
  // 40 extra digits, then Decimal128 rounds to its 34 significant digits; an exact quotient keeps
  // the exponent IEEE 754-2008 prefers (dividend's minus divisor's: 6.0 / 2 = 3.0)
  const digits = 40 + Math.max(0, y.coefficient.toString().length - x.coefficient.toString().length);
  const scaled = x.coefficient * 10n ** BigInt(digits);
  let coefficient = scaled / y.coefficient;
  const preferred = x.exponent - y.exponent;
  let exponent = preferred - digits;
  if (scaled % y.coefficient === 0n) {
    while (exponent < preferred && coefficient % 10n === 0n) {
      coefficient /= 10n;
      exponent += 1;
    }
  }
  return decimalFrom({ kind: 'finite', coefficient, exponent });
}
