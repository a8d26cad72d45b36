import { ObjectId } from 'bson';
import { GraphQLError } from 'graphql';
import { afterFilter, decodeCursor, encodeCursor } from '../../../../src/gateway/planning/cursor';
import { planPage, validateFirst } from '../../../../src/gateway/planning/page-request';
import { parseSort } from '../../../../src/gateway/storage-map/parse-sort';
import type { SortKey } from '../../../../src/gateway/storage-map/storage-map-types';

const newestFirst = parseSort('-createdAt') as SortKey[];

function codeOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error instanceof GraphQLError ? [error.extensions.code, error.message] : error;
  }
  return 'no error';
}

describe('parseSort', () => {
  it('appends _id in the direction of the last key', () => {
    expect(newestFirst).toEqual([{ path: 'createdAt', direction: -1 }, { path: '_id', direction: -1 }]);
    expect(parseSort('name,-pages')).toEqual([{ path: 'name', direction: 1 }, { path: 'pages', direction: -1 }, { path: '_id', direction: -1 }]);
    expect(parseSort('_id')).toEqual([{ path: '_id', direction: 1 }]);
  });
});

describe('first', () => {
  it('defaults to 20 and accepts 0..100', () => {
    expect(validateFirst(undefined)).toBe(20);
    expect(validateFirst(0)).toBe(0);
    expect(validateFirst(100)).toBe(100);
  });
  it('is BAD_USER_INPUT over the cap or below 0, never clamped', () => {
    expect(codeOf(() => validateFirst(101))).toEqual(['BAD_USER_INPUT', 'first must be between 0 and 100, got 101']);
    expect(codeOf(() => validateFirst(-1))).toEqual(['BAD_USER_INPUT', 'first must be between 0 and 100, got -1']);
  });
});

describe('cursors', () => {
  const id = new ObjectId('65a000000000000000000001');
  const createdAt = new Date('2026-01-02T03:04:05.000Z');

  it('round-trip typed sort values', () => {
    const cursor = encodeCursor({ _id: id, createdAt }, newestFirst);
    expect(decodeCursor(cursor, newestFirst)).toEqual([createdAt, id]);
  });

  it('reject garbage, wrong lengths and operator smuggling as BAD_USER_INPUT', () => {
    const smuggled = Buffer.from(JSON.stringify([{ $gt: '' }, { o: id.toHexString() }])).toString('base64url');
    for (const bad of ['nope', Buffer.from('[]').toString('base64url'), smuggled]) {
      expect(codeOf(() => decodeCursor(bad, newestFirst))).toEqual(['BAD_USER_INPUT', `after: ${JSON.stringify(bad)} is not a cursor of this list`]);
    }
  });

  it('select strictly after the last item in sort order', () => {
    expect(afterFilter(newestFirst, [createdAt, id])).toEqual({
      $or: [{ createdAt: { $lt: createdAt } }, { createdAt, _id: { $lt: id } }],
    });
    expect(afterFilter(parseSort('_id') as SortKey[], [id])).toEqual({ _id: { $gt: id } });
  });
});

describe('planPage', () => {
  it('bounds by the smaller of first and the storage limit, and filters before a time on the primary key', () => {
    const before = new Date('2026-01-01T00:00:00.000Z');
    expect(planPage({ first: 5, before }, newestFirst, { acceptsFirst: true, bound: 10 })).toEqual({
      limit: 5,
      filter: { createdAt: { $lt: before } },
      signature: '|2026-01-01T00:00:00.000Z',
    });
    expect(planPage({}, newestFirst, { acceptsFirst: false, bound: 3 })).toEqual({ limit: 3, filter: undefined, signature: '|' });
    expect(planPage({}, newestFirst, { acceptsFirst: false })).toEqual({ limit: undefined, filter: undefined, signature: '|' });
  });
});
