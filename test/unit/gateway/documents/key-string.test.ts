import { Binary, BSONRegExp, Decimal128, Long, MaxKey, MinKey, ObjectId, Timestamp } from 'bson';
import { holdsKey, keyString } from '../../../../src/gateway/documents/key-string';

/** Keys index the loaders' maps: values MongoDB's equality tells apart must key apart, and equal ones alike. */
describe('keyString', () => {
  it('keys apart the values JSON writes alike: MinKey, MaxKey and {}, a Binary of each subtype, a regex and its pattern', () => {
    const values = [new MinKey(), new MaxKey(), {}, new Binary(Buffer.from([1, 2]), 0), new Binary(Buffer.from([1, 2]), 4), new Timestamp({ t: 1, i: 2 }), new BSONRegExp('a', 'i'), 'a', [1, 2], { a: 1 }];
    expect(new Set(values.map(keyString)).size).toBe(values.length);
  });

  it('keys equal values alike, whatever their width or instance', () => {
    expect(keyString(new ObjectId('65e000000000000000000001'))).toBe(keyString(new ObjectId('65e000000000000000000001')));
    expect(new Set([keyString(7), keyString(Long.fromNumber(7)), keyString(Decimal128.fromString('7.0'))]).size).toBe(1);
  });

  it('holdsKey matches a value as MongoDB equality does: equal, or an array holding it', () => {
    const id = new ObjectId('65e000000000000000000001');
    expect([holdsKey(id, keyString(id)), holdsKey([new ObjectId('65e000000000000000000002'), id], keyString(id)), holdsKey([], keyString(id)), holdsKey([null], keyString(null))]).toEqual([true, true, false, false]);
  });
});
