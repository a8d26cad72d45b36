import { ObjectId } from 'bson';
import { afterFilter } from '../../../../../src/gateway/operation/planning/keyset-filter';
import { parseSort } from '../../../../../src/gateway/startup/storage-map/parse-sort';
import type { SortKey } from '../../../../../src/gateway/startup/storage-map/storage-map-types';

const newestFirst = parseSort('-createdAt') as SortKey[];

describe('afterFilter', () => {
  const id = new ObjectId('65a000000000000000000001');
  const createdAt = new Date('2026-01-02T03:04:05.000Z');

  it('selects strictly after the values in sort order, a missing value compared as null', () => {
    expect(afterFilter(newestFirst, [createdAt, id])).toEqual({
      $or: [{ createdAt: { $lt: createdAt } }, { createdAt, _id: { $lt: id } }],
    });
    expect(afterFilter(parseSort('name,-pages') as SortKey[], ['A', undefined, id])).toEqual({
      $or: [{ name: { $gt: 'A' } }, { name: 'A', pages: { $lt: null } }, { name: 'A', pages: null, _id: { $lt: id } }],
    });
    expect(afterFilter(parseSort('_id') as SortKey[], [id])).toEqual({ _id: { $gt: id } });
  });
});
