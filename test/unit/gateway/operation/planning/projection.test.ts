import { covers, mergeProjections, projectionOf, toFindProjection, toProjectStage } from '../../../../../src/gateway/operation/planning/projection';

describe('projection', () => {
  it('merges by union, whole beating a slice and the larger slice winning', () => {
    const merged = mergeProjections([projectionOf([['a', 1], ['s', { slice: 2 }]]), projectionOf([['b', 1], ['s', { slice: 5 }], ['t', { slice: 1 }]]), projectionOf([['t', 1]])]);
    expect(toFindProjection(merged)).toEqual({ a: 1, b: 1, s: { $slice: 5 }, t: 1 });
  });

  it('drops sub-paths of included paths (MongoDB rejects path collisions)', () => {
    expect(toFindProjection(projectionOf([['host.id', 1], ['host', 1], ['authors.id', 1]]))).toEqual({ 'authors.id': 1, host: 1 });
    expect(toFindProjection(projectionOf([['recent', { slice: 3 }], ['recent.author', 1]]))).toEqual({ recent: 1 });
  });

  it('knows when a fetched document covers a need', () => {
    const fetched = projectionOf([['_id', 1], ['host', 1], ['name', 1], ['logs', { slice: 5 }]]);
    expect(covers(fetched, projectionOf([['_id', 1], ['name', 1], ['host.name', 1]]))).toBe(true);
    expect(covers(fetched, projectionOf([['logs', { slice: 3 }]]))).toBe(true);
    expect(covers(fetched, projectionOf([['logs', { slice: 6 }]]))).toBe(false);
    expect(covers(fetched, projectionOf([['logs', 1]]))).toBe(false);
    expect(covers(fetched, projectionOf([['lastName', 1]]))).toBe(false);
  });

  it('gives aggregation $project stages', () => {
    expect(toProjectStage(projectionOf([['a', { slice: 2 }], ['b', 1]]))).toEqual({ a: { $slice: ['$a', 2] }, b: 1 });
  });
});
