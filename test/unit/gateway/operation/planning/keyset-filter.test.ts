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
      $or: [{ $or: [{ createdAt: { $lt: createdAt } }, { createdAt: null }] }, { createdAt, _id: { $lt: id } }],
    });
    expect(afterFilter(parseSort('name,-pages') as SortKey[], ['A', 7, id])).toEqual({
      $or: [{ name: { $gt: 'A' } }, { name: 'A', $or: [{ pages: { $lt: 7 } }, { pages: null }] }, { name: 'A', pages: 7, _id: { $lt: id } }],
    });
    expect(afterFilter(parseSort('_id') as SortKey[], [id])).toEqual({ _id: { $gt: id } });
  });

  it('places null and missing values as MongoDB sorts them: first ascending, last descending', () => {
    // Ascending, after a null comes every value that is not null, then the null ties by _id.
    expect(afterFilter(parseSort('price') as SortKey[], [undefined, id])).toEqual({ $or: [{ price: { $ne: null } }, { price: null, _id: { $gt: id } }] });
    // Descending, nothing comes after a null but its ties; after a value come smaller ones, then the nulls.
    expect(afterFilter(parseSort('-price') as SortKey[], [null, id])).toEqual({ price: null, _id: { $lt: id } });
    expect(afterFilter(parseSort('-price') as SortKey[], [10, id])).toEqual({ $or: [{ $or: [{ price: { $lt: 10 } }, { price: null }] }, { price: 10, _id: { $lt: id } }] });
  });

  it('matches nothing after a null in every key, descending (a forged cursor): never an empty $or, which MongoDB refuses', () => {
    expect(afterFilter(parseSort('-price') as SortKey[], [null, null])).toEqual({ _id: { $in: [] } });
  });
});
