import { scopedFilter, scopedPipeline, type ReadScope } from '../../../../../src/gateway/request/access/scope-read-command';

/** A scope whose viewer reads `orders` where owner is "ann", all of `products`, and nothing of `secrets`. */
const scope: ReadScope = {
  filterFor(collection) {
    if (collection === 'orders') return { owner: 'ann' };
    if (collection === 'secrets') throw new Error('FORBIDDEN secrets');
    return undefined;
  },
};

describe('scopedFilter', () => {
  it('adds the row filter to a find, and leaves a collection read in full alone', () => {
    expect(scopedFilter(scope, 'orders', {})).toEqual({ owner: 'ann' });
    expect(scopedFilter(scope, 'orders', { owner: 'bob' })).toEqual({ $and: [{ owner: 'ann' }, { owner: 'bob' }] });
    const filter = { _id: 1 };
    expect(scopedFilter(scope, 'products', filter)).toBe(filter);
    expect(() => scopedFilter(scope, 'secrets', {})).toThrow('FORBIDDEN secrets');
  });
});

describe('scopedPipeline', () => {
  it('puts a $match first in the pipeline and in every $unionWith branch on a scoped collection', () => {
    const branch = [{ $match: { customer: 2 } }, { $limit: 3 }];
    expect(
      scopedPipeline(scope, 'orders', [{ $match: { customer: 1 } }, { $limit: 3 }, { $unionWith: { coll: 'orders', pipeline: branch } }, { $unionWith: { coll: 'products', pipeline: branch } }, { $unionWith: 'orders' }]),
    ).toEqual([
      { $match: { owner: 'ann' } },
      { $match: { customer: 1 } },
      { $limit: 3 },
      { $unionWith: { coll: 'orders', pipeline: [{ $match: { owner: 'ann' } }, ...branch] } },
      { $unionWith: { coll: 'products', pipeline: branch } },
      { $unionWith: { coll: 'orders', pipeline: [{ $match: { owner: 'ann' } }] } },
    ]);
  });

  it('refuses a branch on a collection the viewer may not read, and stages that read another collection some other way', () => {
    expect(() => scopedPipeline(scope, 'products', [{ $unionWith: { coll: 'secrets', pipeline: [] } }])).toThrow('FORBIDDEN secrets');
    for (const stage of [{ $graphLookup: { from: 'orders' } }, { $out: 'x' }, { $merge: { into: 'x' } }]) {
      expect(() => scopedPipeline(scope, 'products', [stage])).toThrow(`an aggregate with ${Object.keys(stage)[0]} cannot be scoped by access rules; docjoin sends none`);
    }
  });

  it('scopes a $facet by the $match in front of it, and checks every stage of its pipelines', () => {
    const facet = { $facet: { totals: [{ $group: { _id: null, n: { $sum: 1 } } }], sorted: [{ $sort: { _id: 1 } }, { $limit: 2 }] } };
    expect(scopedPipeline(scope, 'orders', [facet])).toEqual([{ $match: { owner: 'ann' } }, facet]);
    expect(scopedPipeline(scope, 'products', [{ $unionWith: { coll: 'orders', pipeline: [facet] } }])).toEqual([{ $unionWith: { coll: 'orders', pipeline: [{ $match: { owner: 'ann' } }, facet] } }]);
    expect(() => scopedPipeline(scope, 'products', [{ $facet: { joined: [{ $graphLookup: { from: 'orders' } }] } }])).toThrow('an aggregate with $graphLookup cannot be scoped by access rules; docjoin sends none');
  });

  it('puts the row filter of a $lookup\'s collection first in its pipeline, nested lookups too, and refuses one it cannot name', () => {
    const nested = { $lookup: { from: 'orders', localField: '_id', foreignField: 'productId', as: 'orders' } };
    expect(scopedPipeline(scope, 'products', [{ $lookup: { from: 'orders', localField: 'orderIds', foreignField: '_id', pipeline: [{ $limit: 2 }, nested], as: 'recent' } }])).toEqual([
      { $lookup: { from: 'orders', localField: 'orderIds', foreignField: '_id', as: 'recent', pipeline: [{ $match: { owner: 'ann' } }, { $limit: 2 }, { $lookup: { ...nested.$lookup, pipeline: [{ $match: { owner: 'ann' } }] } }] } },
    ]);
    // A collection read in full keeps its pipeline as it was (none: an empty one).
    expect(scopedPipeline(scope, 'orders', [{ $lookup: { from: 'products', localField: 'productId', foreignField: '_id', as: 'product' } }])).toEqual([
      { $match: { owner: 'ann' } },
      { $lookup: { from: 'products', localField: 'productId', foreignField: '_id', as: 'product', pipeline: [] } },
    ]);
    expect(() => scopedPipeline(scope, 'products', [{ $lookup: { from: 'secrets', localField: 'a', foreignField: 'b', as: 's' } }])).toThrow('FORBIDDEN secrets');
    expect(() => scopedPipeline(scope, 'products', [{ $lookup: { from: { db: 'other', coll: 'orders' }, as: 'o' } }])).toThrow('a $lookup without a from collection cannot be scoped by access rules; docjoin sends none');
  });
});
