import { Decimal128, Double, Long } from 'bson';
import { keyString } from '../../../../../src/gateway/documents/key-string';
import { filterAndSort } from '../../../../../src/gateway/operation/planning/in-memory-list';

/** Lists filtered and ordered in the gateway, as MongoDB would: numbers of every BSON width compare by value, exactly. */
describe('filterAndSort over BSON numbers', () => {
  const price = (value: unknown) => ({ price: value });
  const documents = [price(Decimal128.fromString('10.5')), price(9.5), price(Long.fromBigInt(2n ** 53n + 1n)), price(Decimal128.fromString('9.50000000000000000001')), price(null), price(new Double(2 ** 53))];

  it('orders them by value across widths, past a double\'s precision', () => {
    const ordered = filterAndSort(documents, [], [{ path: 'price', direction: 1 }]).map((document) => String(document.price));
    expect(ordered).toEqual(['null', '9.5', '9.50000000000000000001', '10.5', '9007199254740992', '9007199254740993']);
  });

  it('compares filter operands of any width by value', () => {
    const above = filterAndSort(documents, [{ price: { gt: Decimal128.fromString('9.5') } }], undefined).map((document) => String(document.price));
    expect(above).toEqual(['10.5', '9007199254740993', '9.50000000000000000001', '9007199254740992']);
    expect(filterAndSort(documents, [{ price: Long.fromNumber(9) }], undefined)).toEqual([]);
    expect(filterAndSort([price(5), price(Long.fromNumber(5)), price(Decimal128.fromString('5.0'))], [{ price: Long.fromNumber(5) }], undefined)).toHaveLength(3);
  });

  it('keys equal numbers alike, whatever their width, as MongoDB matches them', () => {
    expect(new Set([keyString(5), keyString(Long.fromNumber(5)), keyString(Decimal128.fromString('5.00')), keyString(new Double(5))]).size).toBe(1);
    expect(keyString(Long.fromBigInt(2n ** 53n + 1n))).not.toBe(keyString(2 ** 53));
    expect(keyString(0.5)).toBe(keyString(Decimal128.fromString('0.5')));
    expect(keyString(-500)).toBe(keyString(Long.fromNumber(-500)));
    // Digits and a power of ten, never the number written out: 1E+6111 keys as briefly as 1.
    expect(keyString(Decimal128.fromString('1E+6111'))).toBe('n:1e6111');
  });

  it('orders numbers of very different sizes without writing them out', () => {
    const huge = [price(Decimal128.fromString('1E+6111')), price(Decimal128.fromString('-1E+6111')), price(1), price(Decimal128.fromString('1E-6176'))];
    expect(filterAndSort(huge, [], [{ path: 'price', direction: 1 }]).map((document) => String(document.price))).toEqual(['-1E+6111', '1E-6176', '1', '1E+6111']);
  });
});

/** MongoDB orders strings by their UTF-8 bytes, that is by code point; JavaScript's `<` compares UTF-16 units, which put a character past U+FFFF (a surrogate pair) before U+E000–U+FFFF. */
describe('filterAndSort over strings', () => {
  const named = (name: string) => ({ name });
  const documents = [named('ｚx'), named('a'), named('😀y'), named('\uE000'), named('b')];

  it('orders them by code point, as MongoDB does', () => {
    expect(filterAndSort(documents, [], [{ path: 'name', direction: 1 }]).map((document) => document.name)).toEqual(['a', 'b', '\uE000', 'ｚx', '😀y']);
    expect(filterAndSort(documents, [], [{ path: 'name', direction: -1 }]).map((document) => document.name)).toEqual(['😀y', 'ｚx', '\uE000', 'b', 'a']);
  });

  it('compares filter operands by code point too', () => {
    expect(filterAndSort(documents, [{ name: { gt: 'ｚ' } }], undefined).map((document) => document.name)).toEqual(['ｚx', '😀y']);
    expect(filterAndSort(documents, [{ name: { lt: '😀' } }], undefined).map((document) => document.name)).toEqual(['ｚx', 'a', '\uE000', 'b']);
  });
});
