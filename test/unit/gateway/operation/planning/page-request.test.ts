import { ObjectId } from 'bson';
import { anchoredFilter, parseAfter, planPage, validateFirst } from '../../../../../src/gateway/operation/planning/page-request';
import { parseSort } from '../../../../../src/gateway/startup/storage-map/parse-sort';
import type { SortKey } from '../../../../../src/gateway/startup/storage-map/storage-map-types';
import { codeOf } from '../../../../support/graphql-error-code';
import { afterDateAndId, idsAfter, idsBefore } from '../../../../support/keyset-shapes';
import { storedWithDateAt } from '../../../../support/out-of-range-date';

/** What the refusal of a missing `after` item adds (page-request.ts). */
const ANCHOR_GONE = " (deleted since its page was read, or never in this list): a page starts after an item that still exists; start again from the first page, or page by a connection's cursor, which keeps its place without the item";

const newestFirst = parseSort('-createdAt') as SortKey[];

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

describe('after', () => {
  const id = new ObjectId('65a000000000000000000001');
  const createdAt = new Date('2026-01-02T03:04:05.000Z');
  const byId = parseSort('_id') as SortKey[];
  const message = (value: string) => `after must be the id of the last item you received, an ObjectId of 24 hexadecimal characters (a list of documents whose ids are no ObjectIds cannot be paged after: read it with first alone), got ${value}`;

  it('is the 24-hex id of the last item received, any case', () => {
    expect(parseAfter('65a000000000000000000001')).toEqual(id);
    expect(parseAfter('65A000000000000000000001')).toEqual(id);
  });

  it('is BAD_USER_INPUT naming the argument and the value otherwise (old opaque cursors, operators, wrong lengths)', () => {
    for (const bad of ['', 'nope', '65a00000000000000000001', '65a0000000000000000000011', 'zza000000000000000000001', '{"$gt":""}', 'W3sibyI6IjY1YTAifV0']) {
      expect(codeOf(() => parseAfter(bad))).toEqual(['BAD_USER_INPUT', message(JSON.stringify(bad))]);
      expect(codeOf(() => planPage({ after: bad }, byId, { acceptsFirst: true }))).toEqual(['BAD_USER_INPUT', message(JSON.stringify(bad))]);
    }
  });

  it('pages a list ordered by _id with _id alone: $gt ascending, $lt descending, no anchor to read', () => {
    expect(planPage({ first: 7, after: id.toHexString() }, byId, { acceptsFirst: true })).toEqual({
      limit: 7,
      filter: idsAfter(id),
      anchor: undefined,
      sort: byId,
      signature: '65a000000000000000000001|',
    });
    const descending = parseSort('-_id') as SortKey[];
    expect(planPage({ after: id.toHexString().toUpperCase() }, descending, { acceptsFirst: true })).toMatchObject({
      limit: 20,
      filter: idsBefore(id),
      anchor: undefined,
      signature: '65a000000000000000000001|',
    });
    // `_id` first makes any later key irrelevant.
    expect(planPage({ after: id.toHexString() }, parseSort('-_id,name') as SortKey[], { acceptsFirst: false })).toMatchObject({ filter: idsBefore(id), anchor: undefined });
  });

  it('on any other order, asks for the anchor with its sort paths, then selects strictly after its values', () => {
    const page = planPage({ first: 3, after: id.toHexString() }, newestFirst, { acceptsFirst: true });
    expect(page).toMatchObject({ limit: 3, filter: undefined, anchor: { id }, signature: '65a000000000000000000001|' });
    expect([...page.anchor!.projection]).toEqual([['_id', 1], ['createdAt', 1]]);
    expect(anchoredFilter(page, { _id: id, createdAt }, 'Comment')).toEqual({
      ...afterDateAndId(createdAt, id),
    });
  });

  it('combines the anchor with before, and an unknown anchor is BAD_USER_INPUT, not an empty page', () => {
    const before = new Date('2026-01-01T00:00:00.000Z');
    const page = planPage({ after: id.toHexString(), before }, newestFirst, { acceptsFirst: true });
    expect(page.filter).toEqual({ createdAt: { $lt: before } });
    expect(anchoredFilter(page, { _id: id, createdAt }, 'Comment')).toEqual({
      $and: [afterDateAndId(createdAt, id), { createdAt: { $lt: before } }],
    });
    expect(codeOf(() => anchoredFilter(page, null, 'Comment'))).toEqual(['BAD_USER_INPUT', `after: no Comment with id "65a000000000000000000001"${ANCHOR_GONE}`]);
  });

  it('without an anchor, anchoredFilter is the plain filter', () => {
    const page = planPage({ after: id.toHexString() }, byId, { acceptsFirst: true });
    expect(anchoredFilter(page, null, 'Book')).toEqual(idsAfter(id));
  });
});

describe('planPage', () => {
  it('bounds by the smaller of first and the storage limit, and filters before a time on the primary key', () => {
    const before = new Date('2026-01-01T00:00:00.000Z');
    expect(planPage({ first: 5, before }, newestFirst, { acceptsFirst: true, bound: 10 })).toEqual({
      limit: 5,
      filter: { createdAt: { $lt: before } },
      anchor: undefined,
      sort: newestFirst,
      signature: '|2026-01-01T00:00:00.000Z',
    });
    expect(planPage({}, newestFirst, { acceptsFirst: false, bound: 3 })).toMatchObject({ limit: 3, filter: undefined, anchor: undefined, signature: '|' });
    expect(planPage({}, newestFirst, { acceptsFirst: false })).toMatchObject({ limit: undefined, filter: undefined, anchor: undefined, signature: '|' });
  });
});

describe('an anchor whose sort date lies past JavaScript\'s range', () => {
  // The driver reads it as an Invalid Date, which BSON writes as 1970: a page after it would start over.
  const never = storedWithDateAt('65a000000000000000000002', 2n ** 62n, { ownerId: 'p' });
  const byDate = parseSort('at') as SortKey[];
  const refusal = [
    'VALUE_OUT_OF_RANGE',
    'after: no page can start after Event "65a000000000000000000002": its sort values (at, _id) hold a date outside JavaScript\'s range (years -271821 to 275760), which the MongoDB driver reads as an invalid date; store the date within that range or page this list in another order',
  ];
  it.each([
    ['a root list', {}],
    ["a parent's list", { ownerPath: 'ownerId' }],
    ['a bounded list (cut in memory)', { ownerPath: 'ownerId', bound: 5 }],
  ])('is VALUE_OUT_OF_RANGE on %s, not a page from 1970', (_list, options) => {
    const page = planPage({ first: 2, after: '65a000000000000000000002' }, byDate, { acceptsFirst: true, ...options });
    expect(codeOf(() => anchoredFilter(page, never, 'Event', { coordinate: 'Owner.events', key: 'p' }))).toEqual(refusal);
  });
});
