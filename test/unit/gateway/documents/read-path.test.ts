import { ObjectId } from 'bson';
import { readLeaves, readPath, someLeaf, writePath } from '../../../../src/gateway/documents/read-path';
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

describe('readLeaves and someLeaf', () => {
  it("walk a path as MongoDB's matcher does: into the documents of an array the path crosses, in order, not into an array inside it", () => {
    expect(readLeaves({ a: [{ b: 1 }, { b: [2, 3] }, [{ b: 4 }], { c: 5 }, { b: { d: 6 } }] }, 'a.b')).toEqual([1, [2, 3], { d: 6 }]);
    expect(readLeaves({ a: [[{ b: 1 }]] }, 'a.b')).toEqual([]);
    expect(readLeaves({ a: [[1], 2] }, 'a')).toEqual([[[1], 2]]);
    expect(readLeaves({ a: 'text' }, 'a.b')).toEqual([]);
    expect(readLeaves({ a: { b: undefined } }, 'a.b')).toEqual([]);
    expect(readLeaves({ a: { b: null } }, 'a.b')).toEqual([null]);
    expect(readLeaves({ a: [{ b: [{ c: 1 }, { c: 2 }] }, { b: { c: 3 } }] }, 'a.b.c')).toEqual([1, 2, 3]);
    expect(readLeaves({ constructor: 1 }, 'valueOf')).toEqual([]);
  });

  it('someLeaf stops at the first leaf its test accepts, handing the test its argument', () => {
    const seen: unknown[] = [];
    const found = someLeaf({ a: [{ b: 1 }, { b: 2 }, { b: 3 }] }, 'a.b', (leaf, wanted: number) => (seen.push(leaf), leaf === wanted), 2);
    expect(found).toBe(true);
    expect(seen).toEqual([1, 2]);
    expect(someLeaf({ a: [{ b: 1 }] }, 'a.b', (leaf, wanted: number) => leaf === wanted, 9)).toBe(false);
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
