import { MaxKey, MinKey, ObjectId } from 'bson';
import { afterFilter } from '../../../../../src/gateway/operation/planning/keyset-filter';
import { parseSort } from '../../../../../src/gateway/startup/storage-map/parse-sort';
import type { SortKey } from '../../../../../src/gateway/startup/storage-map/storage-map-types';
import { datesBefore, idsAfter, idsBefore } from '../../../../support/keyset-shapes';

const newestFirst = parseSort('-createdAt') as SortKey[];


describe('afterFilter', () => {
  const id = new ObjectId('65a000000000000000000001');
  const createdAt = new Date('2026-01-02T03:04:05.000Z');

  it('selects strictly after the values in sort order: within the type by $gt/$lt, the types beyond by $type, a missing value as null', () => {
    expect(afterFilter(newestFirst, [createdAt, id])).toEqual({
      $or: [datesBefore(createdAt), { createdAt: { $eq: createdAt }, ...idsBefore(id) }],
    });
    expect(afterFilter(parseSort('_id') as SortKey[], [id])).toEqual(idsAfter(id));
  });

  it('after a string ascending, every later type; after a number descending, NaN, MinKey and null', () => {
    const [name] = (afterFilter(parseSort('name,-pages') as SortKey[], ['A', 7, id]).$or as Record<string, unknown>[]);
    expect(name).toEqual({ $or: [{ name: { $gt: 'A' } }, { name: { $type: ['object', 'binData', 'objectId', 'bool', 'date', 'timestamp', 'regex', 'javascript', 'maxKey'] } }] });
    expect(afterFilter(parseSort('-pages') as SortKey[], [7, id]).$or).toContainEqual({ $or: [{ pages: { $lt: 7 } }, { pages: Number.NaN }, { pages: { $type: ['minKey'] } }, { pages: null }] });
  });

  it('after NaN ascending, every other number; descending, only what sorts before numbers', () => {
    const [ascending] = afterFilter(parseSort('score') as SortKey[], [Number.NaN, id]).$or as Record<string, unknown>[];
    expect((ascending!.$or as unknown[])[0]).toEqual({ score: { $gte: -Infinity } });
    const [descending] = afterFilter(parseSort('-score') as SortKey[], [Number.NaN, id]).$or as Record<string, unknown>[];
    expect(descending).toEqual({ $or: [{ score: { $type: ['minKey'] } }, { score: null }] });
  });

  it('places null and missing values as MongoDB sorts them: first ascending (after MinKey), last descending', () => {
    const [ascending] = afterFilter(parseSort('price') as SortKey[], [undefined, id]).$or as Record<string, unknown>[];
    expect(ascending).toEqual({ price: { $nin: [null, new MinKey()] } });
    const [descending] = afterFilter(parseSort('-price') as SortKey[], [null, id]).$or as Record<string, unknown>[];
    expect(descending).toEqual({ price: { $type: 'minKey' } });
  });

  it('matches only the ties after the last type in its direction: never an empty $or, which MongoDB refuses', () => {
    const [ascending] = afterFilter(parseSort('price') as SortKey[], [new MaxKey(), id]).$or as Record<string, unknown>[];
    expect(ascending).toEqual({ price: { $in: [] } });
    const [descending] = afterFilter(parseSort('-price') as SortKey[], [new MinKey(), id]).$or as Record<string, unknown>[];
    expect(descending).toEqual({ price: { $in: [] } });
  });
});
