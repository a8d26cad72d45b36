import { Binary, BSONRegExp, Decimal128, Long, MaxKey, MinKey, ObjectId, Timestamp } from 'bson';
import { holdsKeyAt, keyString, keysHeldAt } from '../../../../src/gateway/documents/key-string';

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

  it('holdsKeyAt matches a value as MongoDB equality does: equal, or an array holding it', () => {
    const id = new ObjectId('65e000000000000000000001');
    const other = new ObjectId('65e000000000000000000002');
    const held = [{ k: id }, { k: [other, id] }, { k: [] }, { k: [null] }, {}].map((document) => holdsKeyAt(document, 'k', keyString(id)));
    expect(held).toEqual([true, true, false, false, false]);
  });

  it('keysHeldAt opens an array the path crosses, and the array it ends at, but not an array inside that one', () => {
    expect(keysHeldAt({ org: [['acme'], 'beta'] }, 'org')).toEqual([['acme'], 'beta']);
    expect(keysHeldAt({ credits: [{ ids: [1, 2] }, { ids: 3 }, { ids: [[4]] }] }, 'credits.ids')).toEqual([1, 2, 3, [4]]);
    expect(holdsKeyAt({ org: [['acme']] }, 'org', keyString('acme'))).toBe(false);
    expect(holdsKeyAt({ credits: [{ ids: [1, 2] }] }, 'credits.ids', keyString(2))).toBe(true);
  });
});
