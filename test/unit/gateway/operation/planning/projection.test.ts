import { covers, hasLookups, mergeProjections, projectionOf, projectStages, sharedLookupName, toFindProjection, toProjectStage } from '../../../../../src/gateway/operation/planning/projection';

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

  it('gives aggregation $project stages: a slice cuts only an array, as find\'s does', () => {
    expect(toProjectStage(projectionOf([['a', { slice: 2 }], ['b', 1]]))).toEqual({ a: { $cond: [{ $isArray: '$a' }, { $slice: ['$a', 2] }, '$a'] }, b: 1 });
  });

  it('reads lookups as $lookup stages before the $project, merges two selections of one, and refuses them to a find', () => {
    const inner = (path: string) => projectionOf([['_id', 1], [path, 1]]);
    const lookup = (path: string) => ({ lookup: { from: 'books', direction: 'byKey' as const, localField: 'bookIds', foreignField: '_id', page: [], projection: inner(path) } });
    const projection = projectionOf([['_id', 1], ['name', 1], ['_docjoin_lookup_books_x', lookup('title')], ['_docjoin_lookup_books_x', lookup('year')]]);
    expect(hasLookups(projection)).toBe(true);
    expect(projectStages(projection)).toEqual([
      { $project: { _id: 1, name: 1 } },
      { $lookup: { from: 'books', localField: 'bookIds', foreignField: '_id', as: '_docjoin_lookup_books_x', pipeline: [{ $project: { _id: 1, title: 1, year: 1 } }] } },
    ]);
    expect(() => toFindProjection(projection)).toThrow('a find cannot read the $lookup _docjoin_lookup_books_x; read it with projectStages');
    // A document read with the lookup covers a load that needs less of it, not one that needs more or another.
    expect(covers(projection, projectionOf([['_docjoin_lookup_books_x', lookup('title')]]))).toBe(true);
    expect(covers(projectionOf([['_docjoin_lookup_books_x', lookup('title')]]), projection)).toBe(false);
    expect(covers(projectionOf([['name', 1]]), projectionOf([['_docjoin_lookup_books_x', lookup('title')]]))).toBe(false);
  });

  describe('element lookups (path.name: each element of the embedded value at path gets its own documents)', () => {
    const stock = { lookup: { from: 'stocks', direction: 'byKey' as const, localField: 'stockId', foreignField: '_id', page: [], projection: projectionOf([['_id', 1], ['symbol', 1]]) } };
    const lookupAll = { $lookup: { from: 'stocks', localField: 'holdings.stockId', foreignField: '_id', as: sharedLookupName('holdings.S'), pipeline: [{ $project: { _id: 1, symbol: 1 } }] } };

    it('names each element lookup\'s shared list apart, in 20 characters (js-bson reads longer keys through Buffer)', () => {
      const names = ['holdings.S', 'pastHoldings.S', 'holdings.T', 'a.holdings.S'].map(sharedLookupName);
      expect(new Set(names).size).toBe(4);
      for (const name of names) expect(name).toMatch(/^_dj_in_[0-9a-f]{13}$/);
    });

    it('looks up the keys of every element the $project keeps into one list per document', () => {
      const projection = projectionOf([['_id', 1], ['holdings.numberHeld', 1], ['holdings.stockId', 1], ['holdings.S', stock]]);
      expect(projectStages(projection)).toEqual([{ $project: { _id: 1, 'holdings.numberHeld': 1, 'holdings.stockId': 1 } }, lookupAll]);
    });

    it('stays under a path read whole or sliced: only the elements kept are looked up', () => {
      expect([...projectionOf([['holdings', 1], ['holdings.numberHeld', 1], ['holdings.S', stock]]).keys()]).toEqual(['holdings', 'holdings.S']);
      for (const [wider, projected] of [
        [1, 1],
        [{ slice: 2 }, { $cond: [{ $isArray: '$holdings' }, { $slice: ['$holdings', 2] }, '$holdings'] }],
      ] as const) {
        const projection = projectionOf([['_id', 1], ['holdings', wider], ['holdings.S', stock]]);
        expect([...projection.keys()]).toEqual(['_id', 'holdings', 'holdings.S']);
        expect(projectStages(projection)).toEqual([{ $project: { _id: 1, holdings: projected } }, lookupAll]);
      }
    });
  });
});
