import { MaxKey, MinKey, ObjectId } from 'bson';
import { afterFilter } from '../../../../../src/gateway/operation/planning/keyset-filter';
import { parseSort } from '../../../../../src/gateway/startup/storage-map/parse-sort';
import type { SortKey } from '../../../../../src/gateway/startup/storage-map/storage-map-types';
import { afterDateAndId, idsAfter } from '../../../../support/keyset-shapes';

const newestFirst = parseSort('-createdAt') as SortKey[];


describe('afterFilter', () => {
  const id = new ObjectId('65a000000000000000000001');
  const createdAt = new Date('2026-01-02T03:04:05.000Z');

  it('selects strictly after the values in sort order: within the type by $gt/$lt, the types beyond by $type, a missing value as null', () => {
    expect(afterFilter(newestFirst, [createdAt, id])).toEqual(afterDateAndId(createdAt, id));
    expect(afterFilter(parseSort('_id') as SortKey[], [id])).toEqual(idsAfter(id));
  });

  it('after a string ascending, every later type; after a number descending, NaN, MinKey and null', () => {
    const [name] = (afterFilter(parseSort('name,-pages') as SortKey[], ['A', 7, id]).$or as Record<string, unknown>[]);
    expect(withoutGuard(name)).toEqual({ $or: [{ name: { $gt: 'A' } }, { name: { $type: ['object', 'binData', 'objectId', 'bool', 'date', 'timestamp', 'regex', 'javascript', 'maxKey'] } }] });
    const [pages] = afterFilter(parseSort('-pages') as SortKey[], [7, id]).$or as Record<string, unknown>[];
    expect(withoutGuard(pages)).toEqual({ $or: [{ pages: { $lt: 7 } }, { pages: Number.NaN }, { pages: { $type: ['minKey'] } }, { pages: null }, { pages: { $exists: false } }, { pages: { $eq: [] } }] });
  });

  it('after NaN ascending, every other number; descending, only what sorts before numbers', () => {
    const [ascending] = afterFilter(parseSort('score') as SortKey[], [Number.NaN, id]).$or as Record<string, unknown>[];
    expect((ascending!.$or as unknown[])[0]).toEqual({ score: { $gte: -Infinity } });
    const [descending] = afterFilter(parseSort('-score') as SortKey[], [Number.NaN, id]).$or as Record<string, unknown>[];
    expect(withoutGuard(descending)).toEqual({ $or: [{ score: { $type: ['minKey'] } }, { score: null }, { score: { $exists: false } }, { score: { $eq: [] } }] });
  });

  it('places null and missing values as MongoDB sorts them: first ascending (after MinKey), last descending', () => {
    const [ascending] = afterFilter(parseSort('price') as SortKey[], [undefined, id]).$or as Record<string, unknown>[];
    // $exists: a path through an array of numbers reaches nothing, which sorts as null.
    expect(withoutGuard(ascending)).toEqual({ price: { $nin: [null, new MinKey()], $exists: true } });
    const [descending] = afterFilter(parseSort('-price') as SortKey[], [null, id]).$or as Record<string, unknown>[];
    expect(withoutGuard(descending)).toEqual({ $or: [{ price: { $type: 'minKey' } }, { price: { $eq: [] } }] });
  });

  it('matches only the ties after the last type in its direction: never an empty $or, which MongoDB refuses', () => {
    const [ascending] = afterFilter(parseSort('price') as SortKey[], [new MaxKey(), id]).$or as Record<string, unknown>[];
    expect(withoutGuard(ascending)).toEqual({ price: { $in: [] } });
    const [descending] = afterFilter(parseSort('-price') as SortKey[], [new MinKey(), id]).$or as Record<string, unknown>[];
    expect(withoutGuard(descending)).toEqual({ price: { $in: [] } });
  });

  it('keeps out a document an element of whose array sorts before the position (or level with it, after a tie): MongoDB sorts it by that element, yet $gt matches it by another', () => {
    const [after, tied] = afterFilter(parseSort('name,-pages') as SortKey[], ['A', 7, id]).$or as Record<string, unknown>[];
    expect(after!.$nor).toEqual([{ name: { $size: 0 } }, { name: null }, { name: { $type: ['minKey', 'int', 'long', 'double', 'decimal'] } }, { name: { $lte: 'A' } }]);
    expect(tied!.$nor).toEqual([
      { name: { $size: 0 } },
      { name: null },
      { name: { $type: ['minKey', 'int', 'long', 'double', 'decimal'] } },
      { name: { $lt: 'A' } },
      { pages: { $type: ['string', 'symbol', 'object', 'binData', 'objectId', 'bool', 'date', 'timestamp', 'regex', 'javascript', 'maxKey'] } },
      { pages: { $gte: 7 } },
    ]);
    // _id is never an array.
    expect(afterFilter(parseSort('_id') as SortKey[], [id]).$nor).toBeUndefined();
  });
});

/** A branch of afterFilter without the conditions on arrays' other elements. */
function withoutGuard(branch: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (branch === undefined) return undefined;
  const { $nor: _guard, ...rest } = branch;
  return rest;
}
