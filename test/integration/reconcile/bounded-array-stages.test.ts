import type { Document } from 'mongodb';
import { childrenStages } from '../../../src/reconcile/check-bounded-array';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';

/** The pipeline for servers before 5.2 ($push, then $slice) keeps exactly what $topN keeps. */
let mongo: TestMongo;
beforeAll(async () => {
  mongo = await startTestMongo();
});
afterAll(() => mongo?.stop());

const array = { childKey: 'postId', sort: [{ path: 'at', direction: -1 as const }, { path: '_id', direction: -1 as const }], limit: 3 };

it('gives each parent its first `limit` children in sort order, with $topN or without it', async () => {
  const db = mongo.freshDb('bounded_array_stages');
  // Parents with 0, 1, 3 and 7 children; equal times broken by _id, as the array's sort says.
  const children = [
    ...[{ postId: 'b', at: 5 }],
    ...[3, 1, 2].map((at) => ({ postId: 'c', at })),
    ...[4, 9, 9, 1, 7, 9, 2].map((at) => ({ postId: 'd', at })),
  ].map((child, index) => ({ _id: index, ...child }));
  await db.collection('comments').insertMany(children as Document[]);
  const keys = ['a', 'b', 'c', 'd'];
  const run = async (hasTopN: boolean) => {
    const groups = await db.collection('comments').aggregate(childrenStages(array, keys, hasTopN)).toArray();
    return Object.fromEntries(groups.map((group) => [group._id as string, (group.docs as Document[]).map((doc) => doc._id as number)]));
  };
  const expected = { b: [0], c: [1, 3, 2], d: [9, 6, 5] };
  expect(await run(true)).toEqual(expected);
  expect(await run(false)).toEqual(expected);
  expect(childrenStages(array, keys, false).map((stage) => Object.keys(stage)[0])).toEqual(['$match', '$sort', '$group', '$project']);
  expect(childrenStages(array, keys, true).map((stage) => Object.keys(stage)[0])).toEqual(['$match', '$sort', '$group']);
});
