import { Double, Int32, ObjectId } from 'mongodb';
import { compareCopies, isCopied } from '../../../src/infer-schema/compare-copies';
import { idKey } from '../../../src/infer-schema/sample-database';

describe('compareCopies', () => {
  const ada = new ObjectId('650000000000000000000001');
  const grace = new ObjectId('650000000000000000000002');
  const gone = new ObjectId('650000000000000000000009');
  const sources = new Map([
    [idKey(ada), { _id: ada, name: 'Ada', age: new Double(36) }],
    [idKey(grace), { _id: grace, name: 'Grace', age: new Double(85) }],
  ]);

  test('counts, per key, the copies equal to their source; a dangling copy is not compared', () => {
    const entries = [
      { id: ada, name: 'Ada', age: new Int32(36), role: 'author' },
      { id: grace, name: 'Grace', role: 'editor' },
      { id: gone, name: 'Nobody', role: 'ghost' },
    ];
    expect(compareCopies(entries, 'id', sources, ['name', 'age', 'role'])).toEqual({
      compared: 2,
      fields: [
        { key: 'name', equal: 2, different: 0 },
        { key: 'age', equal: 1, different: 0 },
        { key: 'role', equal: 0, different: 2 },
      ],
    });
  });

  test('a copy may be stale in at most one in ten', () => {
    expect(isCopied({ key: 'name', equal: 9, different: 1 })).toBe(true);
    expect(isCopied({ key: 'name', equal: 8, different: 1 })).toBe(false);
    expect(isCopied({ key: 'name', equal: 0, different: 0 })).toBe(false);
  });
});
