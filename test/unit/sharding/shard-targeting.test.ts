import { targetingOf, type ShardKeys } from '../../../src/sharding/shard-targeting';

const KEYS: ShardKeys = { logMessages: { 'host.id': 'hashed' }, comments: { postId: 1, _id: 1 }, books: { _id: 'hashed' } };
const route = (collection: string, command: string, filter?: object) => targetingOf({ collection, command, ...(filter && { filter: filter as never }) }, KEYS);

describe('targetingOf', () => {
  it('sends a collection nobody sharded to its primary shard, and routes no commit or getMore', () => {
    expect(route('posts', 'find', { _id: '?' })).toBe('unsharded');
    expect(route('logMessages', 'commitTransaction')).toBe('not routed');
    expect(route('logMessages', 'getMore')).toBe('not routed');
  });

  it('targets one shard by an equality on the key, the shards of the keys by $in, and routes an insert by its document', () => {
    expect(route('logMessages', 'find', { 'host.id': '?' })).toBe('one shard');
    expect(route('logMessages', 'update', { 'host.id': { $eq: '?' } })).toBe('one shard');
    expect(route('logMessages', 'aggregate', { 'host.id': { $in: '?' }, time: { $lt: '?' } })).toBe('targeted');
    expect(route('books', 'insert')).toBe('one shard');
  });

  it('broadcasts without the key, with a range on a hashed key, and when one $or branch lacks it', () => {
    expect(route('logMessages', 'find', { _id: { $in: '?' } })).toBe('broadcast');
    expect(route('logMessages', 'aggregate')).toBe('broadcast');
    expect(route('books', 'find', { _id: { $gt: '?' } })).toBe('broadcast');
    expect(route('comments', 'find', { $or: [{ postId: '?' }, { author: '?' }] })).toBe('broadcast');
  });

  it('targets a range on a ranged key\'s first field, through $and and $or whose branches all hold the key', () => {
    expect(route('comments', 'find', { postId: { $gte: '?' } })).toBe('targeted');
    // An equality on the compound key's first field: the chunks of that prefix; on both fields: one shard.
    expect(route('comments', 'find', { $and: [{ text: '?' }, { postId: '?' }] })).toBe('targeted');
    expect(route('comments', 'update', { postId: '?', _id: { $eq: '?' } })).toBe('one shard');
    expect(route('comments', 'update', { $or: [{ postId: '?' }, { postId: '?', _id: '?' }] })).toBe('targeted');
    // The key's second field alone routes nothing.
    expect(route('comments', 'find', { _id: '?' })).toBe('broadcast');
  });

  it('reads equalities spread over $and branches (an aggregate\'s leading $match stages) as one filter', () => {
    expect(route('comments', 'aggregate', { $and: [{ postId: '?' }, { _id: '?' }] })).toBe('one shard');
    expect(route('comments', 'find', { postId: '?', $and: [{ $and: [{ _id: { $eq: '?' } }] }] })).toBe('one shard');
    expect(route('comments', 'find', { $and: [{ postId: '?' }, { $or: [{ _id: '?' }, { text: '?' }] }] })).toBe('targeted');
  });

  it('bounds a list\'s prefix filter (an anchored $regex) like a range: targeted on a ranged key, broadcast on a hashed one', () => {
    expect(route('comments', 'find', { postId: { $regex: '?' } })).toBe('targeted');
    expect(route('books', 'find', { _id: { $regex: '?' } })).toBe('broadcast');
  });
});
