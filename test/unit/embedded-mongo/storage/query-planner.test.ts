import { Long, ObjectId } from 'bson';
import { isExactPlan, planQuery } from '../../../../src/embedded-mongo/storage/query-planner';

const indexed = new Map([
  ['email', 'email_1'],
  ['authors.id', 'authors.id_1'],
  ['postId', 'postId_1_createdAt_-1'],
]);

describe('planQuery', () => {
  it('uses the _id map for an _id equality or $in, before any secondary index', () => {
    const id = new ObjectId();
    expect(planQuery({ _id: id, email: 'a' }, indexed)).toEqual({ kind: 'id', values: [id] });
    expect(planQuery({ _id: { $in: [1, 2, 3] } }, indexed)).toEqual({ kind: 'id', values: [1, 2, 3] });
  });

  it('uses a secondary index for equality, $eq and $in on its first field, including dotted paths', () => {
    expect(planQuery({ email: 'a@x' }, indexed)).toEqual({ kind: 'index', indexName: 'email_1', field: 'email', values: ['a@x'] });
    expect(planQuery({ email: { $eq: 'b' } }, indexed)).toEqual({ kind: 'index', indexName: 'email_1', field: 'email', values: ['b'] });
    expect(planQuery({ 'authors.id': { $in: [7, 8] } }, indexed)).toEqual({
      kind: 'index',
      indexName: 'authors.id_1',
      field: 'authors.id',
      values: [7, 8],
    });
    expect(planQuery({ postId: 3, createdAt: { $gt: 1 } }, indexed)).toEqual({
      kind: 'index',
      indexName: 'postId_1_createdAt_-1',
      field: 'postId',
      values: [3],
    });
  });

  it('finds equalities inside $and and prefers the field with the fewest values', () => {
    expect(planQuery({ $and: [{ email: { $in: ['a', 'b', 'c'] } }, { postId: { $in: [1] } }] }, indexed)).toEqual({
      kind: 'index',
      indexName: 'postId_1_createdAt_-1',
      field: 'postId',
      values: [1],
    });
  });

  it('scans when no indexed field is pinned, or when a value cannot be looked up by key (regex; null in a sparse index)', () => {
    expect(planQuery({ name: 'x' }, indexed)).toEqual({ kind: 'scan' });
    expect(planQuery({ email: { $gt: 'a' } }, indexed)).toEqual({ kind: 'scan' });
    expect(planQuery({ email: null }, indexed, false, new Set(['email']))).toEqual({ kind: 'scan' });
    expect(planQuery({ email: { $in: ['a', null] } }, indexed, false, new Set(['email']))).toEqual({ kind: 'scan' });
    expect(planQuery({ email: /a/ }, indexed)).toEqual({ kind: 'scan' });
    expect(planQuery({ $or: [{ email: 'a' }, { email: 'b' }] }, indexed)).toEqual({ kind: 'scan' });
  });

  it('looks null up by key on _id, which every stored document has: a $lookup sends null for parents without the local field', () => {
    const id = new ObjectId();
    expect(planQuery({ _id: { $in: [id, null] } }, indexed)).toEqual({ kind: 'id', values: [id, null] });
    expect(planQuery({ _id: null }, indexed)).toEqual({ kind: 'id', values: [null] });
    expect(planQuery({ _id: { $in: [id, undefined] } }, indexed)).toEqual({ kind: 'scan' });
  });

  it('looks null up in an index that is not sparse on a top-level field, which keys a document missing the field as null', () => {
    expect(planQuery({ email: null }, indexed)).toEqual({ kind: 'index', indexName: 'email_1', field: 'email', values: [null] });
    // A dotted path's index keys part ways with the filter (through a DBRef, a regex, past an array's end).
    expect(planQuery({ 'authors.id': { $in: [7, null] } }, indexed)).toEqual({ kind: 'scan' });
    // Not through a field no index leads with, nor inside $and for one.
    expect(planQuery({ $and: [{ name: null }, { email: { $in: ['a', null] } }] }, indexed)).toEqual({ kind: 'index', indexName: 'email_1', field: 'email', values: ['a', null] });
  });

  it('treats an empty $in as an index lookup with no values (no candidates at all)', () => {
    expect(planQuery({ _id: { $in: [] } }, indexed)).toEqual({ kind: 'id', values: [] });
  });
});

describe('isExactPlan', () => {
  const id = new ObjectId();
  const plan = (filter: Record<string, unknown>) => planQuery(filter, indexed);

  it('is exact for a lone equality or $in on the planned field with string, ObjectId, number, boolean or Date values', () => {
    for (const filter of [{ email: 'a' }, { email: { $eq: 'a' } }, { 'authors.id': { $in: [id, 3, true, new Date(0)] } }, { _id: { $in: [1, 'x'] } }]) {
      expect(isExactPlan(filter, plan(filter))).toBe(true);
    }
  });

  it('is not exact when the filter checks more, or when values have looser equality', () => {
    for (const filter of [
      { email: 'a', name: 'b' },
      { email: { $in: ['a'], $ne: 'b' } },
      { email: { $in: [['a']] } },
      { email: { $in: [{ a: 1 }] } },
      { email: Long.fromNumber(1) },
      { email: Number.NaN },
      { 'authors.0': 1 },
      { name: 'a' },
      // null also matches a missing field or an array holding null, which an index key does not tell apart
      { email: null },
      { email: { $in: ['a', null] } },
    ]) {
      expect(isExactPlan(filter, plan(filter))).toBe(false);
    }
  });

  it('is exact for null on _id, which every stored document has: the documents whose _id is null', () => {
    for (const filter of [{ _id: null }, { _id: { $in: [id, null] } }]) expect(isExactPlan(filter, plan(filter))).toBe(true);
  });
});
