import { ObjectId } from 'bson';
import { commandFilterShape, commandLookupShapes, shapeOf } from '../../../../../src/gateway/request/cost/filter-shape';

describe('filter shapes (keys and operators, never values)', () => {
  it('replaces values and operator operands by "?"', () => {
    const ids = [new ObjectId(), new ObjectId()];
    expect(shapeOf({ _id: { $in: ids } })).toEqual({ _id: { $in: '?' } });
    expect(shapeOf({ 'host.id': ids[0], name: 'db-1', n: 3 })).toEqual({ 'host.id': '?', name: '?', n: '?' });
    expect(shapeOf({ due: { $lt: new Date(0), $gte: new Date(0) } })).toEqual({ due: { $lt: '?', $gte: '?' } });
  });

  it('keeps the branches of $and / $or / $nor, and nested operator documents', () => {
    expect(shapeOf({ $and: [{ postId: { $in: [1] } }, { $or: [{ createdAt: { $lt: 1 } }, { createdAt: 1, _id: { $lt: 2 } }] }] })).toEqual({
      $and: [{ postId: { $in: '?' } }, { $or: [{ createdAt: { $lt: '?' } }, { createdAt: '?', _id: { $lt: '?' } }] }],
    });
    expect(shapeOf({ tags: { $elemMatch: { kind: 'x' } } })).toEqual({ tags: { $elemMatch: { kind: '?' } } });
  });

  it('treats an embedded document value as a value, not as operators', () => {
    expect(shapeOf({ address: { city: 'Lyon' } })).toEqual({ address: '?' });
  });

  it('reads the filter of a find and the leading $match of an aggregate', () => {
    expect(commandFilterShape('find', { find: 'books', filter: { _id: { $in: [1] } } })).toEqual({ _id: { $in: '?' } });
    expect(commandFilterShape('aggregate', { aggregate: 'logMessages', pipeline: [{ $match: { 'host.id': { $in: [1] } } }, { $sort: { time: -1 } }] })).toEqual({
      'host.id': { $in: '?' },
    });
    expect(commandFilterShape('aggregate', { aggregate: 'x', pipeline: [{ $sort: { a: 1 } }] })).toBeUndefined();
    expect(commandFilterShape('getMore', { getMore: 1, collection: 'books' })).toBeUndefined();
    expect(commandFilterShape('count', { count: 'books', query: { publisherId: 1 } })).toEqual({ publisherId: '?' });
    // A batch of per-key branches over the same collection: an $or of their $match.
    const branch = (key: number) => [{ $match: { postId: key } }, { $sort: { _id: 1 } }, { $limit: 3 }];
    expect(commandFilterShape('aggregate', { aggregate: 'comments', pipeline: [...branch(1), { $unionWith: { coll: 'comments', pipeline: branch(2) } }] })).toEqual({ $or: [{ postId: '?' }, { postId: '?' }] });
    expect(commandFilterShape('aggregate', { aggregate: 'comments', pipeline: [...branch(1), { $unionWith: { coll: 'other', pipeline: branch(2) } }] })).toEqual({ postId: '?' });
    // A branch opening without a $match reads the whole collection: it is not left out.
    expect(commandFilterShape('aggregate', { aggregate: 'comments', pipeline: [...branch(1), { $unionWith: { coll: 'comments', pipeline: [{ $sort: { _id: 1 } }, { $limit: 3 }] } }] })).toEqual({ $or: [{ postId: '?' }, {}] });
    expect(commandFilterShape('aggregate', { aggregate: 'comments', pipeline: [...branch(1), { $unionWith: { coll: 'comments' } }] })).toEqual({ $or: [{ postId: '?' }, {}] });
    // An update's or delete's statements: one is its filter, several an $or of theirs.
    expect(commandFilterShape('update', { update: 'books', updates: [{ q: { 'authors.id': 7 }, u: { $set: { 'authors.$[e0].name': 'x' } }, multi: true }] })).toEqual({ 'authors.id': '?' });
    expect(commandFilterShape('update', { update: 'posts', updates: [{ q: { _id: 1 }, u: {} }, { q: { _id: 2, n: { $gt: 0 } }, u: {} }] })).toEqual({ $or: [{ _id: '?' }, { _id: '?', n: { $gt: '?' } }] });
    expect(commandFilterShape('delete', { delete: 'books', deletes: [{ q: { _id: 3 }, limit: 1 }] })).toEqual({ _id: '?' });
  });

  it("merges an aggregate's leading $match stages, and lists its $lookups nested, each with its key and leading $match stages", () => {
    const lookup = {
      $lookup: {
        from: 'books',
        localField: 'bookIds',
        foreignField: '_id',
        as: 'books',
        pipeline: [
          { $match: { tenant: 'a' } },
          { $project: { name: 1, publisherId: 1 } },
          { $lookup: { from: 'publishers', localField: 'publisherId', foreignField: '_id', as: 'publisher', pipeline: [{ $project: { name: 1 } }] } },
        ],
      },
    };
    const command = { aggregate: 'authors', pipeline: [{ $match: { tenant: 'a' } }, { $match: { _id: { $in: [1, 2] } } }, { $limit: 2 }, { $project: { name: 1, bookIds: 1 } }, lookup] };
    expect(commandFilterShape('aggregate', command)).toEqual({ $and: [{ tenant: '?' }, { _id: { $in: '?' } }] });
    expect(commandLookupShapes('aggregate', command)).toEqual([{ from: 'books', filter: { $and: [{ _id: '?' }, { tenant: '?' }] }, lookups: [{ from: 'publishers', filter: { _id: '?' } }] }]);
    expect(commandLookupShapes('aggregate', { aggregate: 'authors', pipeline: [{ $match: {} }] })).toBeUndefined();
    expect(commandLookupShapes('find', { find: 'authors', filter: {} })).toBeUndefined();
    // A pipeline-only lookup that opens with no $match selects every document.
    expect(commandLookupShapes('aggregate', { aggregate: 'a', pipeline: [{ $lookup: { from: 'b', as: 'b', pipeline: [{ $limit: 1 }] } }] })).toEqual([{ from: 'b', filter: {} }]);
  });
});
