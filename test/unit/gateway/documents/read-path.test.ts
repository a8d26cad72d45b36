import { ObjectId } from 'bson';
import { readPath, writePath } from '../../../../src/gateway/documents/read-path';
import { keyString } from '../../../../src/gateway/documents/key-string';

describe('readPath', () => {
  it('maps over arrays like MongoDB paths do', () => {
    const doc = { authors: [{ id: 1 }, { id: 2 }, { name: 'no id' }], host: { id: 'h' }, tags: [['a'], ['b']] };
    expect(readPath(doc, 'authors.id')).toEqual([1, 2]);
    expect(readPath(doc, 'host.id')).toBe('h');
    expect(readPath(doc, 'missing.id')).toBeUndefined();
    expect(readPath(doc, 'tags')).toEqual([['a'], ['b']]);
  });

  it('writes nested paths', () => {
    const target: Record<string, unknown> = {};
    writePath(target, 'a.b', 1);
    writePath(target, 'c', 2);
    expect(target).toEqual({ a: { b: 1 }, c: 2 });
  });
});

describe('keyString', () => {
  it('gives equal strings for equal BSON values of different instances, distinct across types', () => {
    expect(keyString(new ObjectId('65a000000000000000000001'))).toBe(keyString(new ObjectId('65a000000000000000000001')));
    expect(keyString('1')).not.toBe(keyString(1));
    expect(keyString(new Date(5))).toBe('d:5');
  });

  it("spells an ObjectId's key with its hex string, as cursors issued before carry it", () => {
    for (const hex of ['65a000000000000000000001', '00ff10a9b8c7d6e5f4030201', 'ffffffffffffffffffffffff']) {
      expect(keyString(new ObjectId(hex))).toBe(`o:${hex}`);
    }
    expect(keyString({ _bsontype: 'ObjectId', toHexString: () => '65a000000000000000000002' })).toBe('o:65a000000000000000000002');
  });
});
