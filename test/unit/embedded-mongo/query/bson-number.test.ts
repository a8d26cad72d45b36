import { Decimal128, Long } from 'bson';
import { absoluteValue, arithmetic, compareNumbers, divide, exactFromDouble, exactToString, numberKey } from '../../../../src/bson/bson-number';
import { sumValues } from '../../../../src/embedded-mongo/query/mingo-context';

describe('bson-number', () => {
  it('expands doubles to their exact binary value', () => {
    expect(exactToString(exactFromDouble(0.5))).toBe('0.5');
    expect(exactToString(exactFromDouble(0.1))).toBe('0.1000000000000000055511151231257827021181583404541015625');
    expect(exactToString(exactFromDouble(1e21))).toBe('1000000000000000000000');
  });

  // MongoDB docs: "$sum (aggregation)" — the result has the widest input type; Long overflow becomes a double
  it('adds with MongoDB result types', () => {
    expect(arithmetic('add', 1, 2)).toBe(3);
    expect(arithmetic('add', 1, Long.fromNumber(2))).toEqual(Long.fromNumber(3));
    expect(arithmetic('add', Long.fromNumber(2), 0.5)).toBe(2.5);
    expect(String(arithmetic('add', new Decimal128('0.1'), new Decimal128('0.2')))).toBe('0.3');
    expect(String(arithmetic('multiply', new Decimal128('1.10'), 3))).toBe('3.30');
    expect(arithmetic('add', Long.MAX_VALUE, Long.fromNumber(1))).toBe(9223372036854775808);
    expect(sumValues([Long.MAX_VALUE, Long.fromNumber(1)])).toBe(9223372036854775808);
    expect(String(sumValues([Long.fromString('9007199254740993'), 1]))).toBe('9007199254740994');
    expect(sumValues([1, 'x', null, 2.5])).toBe(3.5);
    // int32 overflow is promoted to Long (MongoDB docs: "$sum" / "$inc" result types)
    expect(arithmetic('add', 2147483647, 1)).toEqual(Long.fromNumber(2147483648));
    expect(arithmetic('multiply', 65536, 65536)).toEqual(Long.fromNumber(4294967296));
    expect(sumValues([2147483647, 1])).toEqual(Long.fromNumber(2147483648));
  });

  it('compares and keys numbers exactly across types', () => {
    expect(compareNumbers(new Decimal128('1E+400'), Infinity)).toBe(-1);
    expect(compareNumbers(new Decimal128('-Infinity'), -Infinity)).toBe(0);
    expect(numberKey(new Decimal128('2.50'))).toBe(numberKey(2.5));
    expect(numberKey(Long.fromNumber(-3))).toBe(numberKey(-3));
  });

  it('subtracts exactly with the wider type: int32 overflow becomes Long, Long stays Long, Decimal128 keeps its scale', () => {
    expect(arithmetic('subtract', -2147483648, 1)).toEqual(Long.fromNumber(-2147483649));
    expect(arithmetic('subtract', Long.fromString('9007199254740993'), 1)).toEqual(Long.fromString('9007199254740992'));
    expect(String(arithmetic('subtract', Decimal128.fromString('1.50'), 2))).toBe('-0.50');
  });

  it('rounds a Decimal128 result to 34 digits, half to even, and past the largest one gives Infinity of its sign', () => {
    const largest = Decimal128.fromString('9.999999999999999999999999999999999E+6144');
    const decimal = (text: string) => Decimal128.fromString(text);
    expect(String(arithmetic('add', decimal('1E+40'), decimal('0.01')))).toBe('1.000000000000000000000000000000000E+40');
    expect([arithmetic('add', largest, largest), arithmetic('subtract', decimal('-1E+6144'), largest)].map(String)).toEqual(['Infinity', '-Infinity']);
    // Half of the last place rounds the 34 nines up into a 35th digit; less than half leaves them.
    expect([arithmetic('add', largest, decimal('5E+6110')), arithmetic('add', largest, decimal('4E+6110'))].map(String)).toEqual(['Infinity', String(largest)]);
    expect(String(arithmetic('multiply', decimal('1E+6144'), 10))).toBe('Infinity');
  });

  it('takes absolute values in the same type (int32 minimum → Long; Long minimum fails)', () => {
    expect(absoluteValue(-5)).toBe(5);
    expect(absoluteValue(-2147483648)).toEqual(Long.fromNumber(2147483648));
    expect(absoluteValue(Long.fromString('-9007199254740993'))).toEqual(Long.fromString('9007199254740993'));
    expect(String(absoluteValue(Decimal128.fromString('-2.50')))).toBe('2.50');
    expect(() => absoluteValue(Long.MIN_VALUE)).toThrow("can't take $abs of long long min");
  });

  it('divides into a double, or a Decimal128 with the preferred exponent when exact', () => {
    expect(divide(7, 2)).toBe(3.5);
    expect(divide(1, 0)).toBeUndefined();
    expect(String(divide(Decimal128.fromString('6.0'), 2))).toBe('3.0');
    expect(String(divide(Decimal128.fromString('1'), 3))).toBe('0.3333333333333333333333333333333333');
    expect(divide(Decimal128.fromString('1'), Decimal128.fromString('0.00'))).toBeUndefined();
  });
});

