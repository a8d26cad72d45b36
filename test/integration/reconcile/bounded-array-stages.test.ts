import type { CommandStartedEvent, Db, Document } from 'mongodb';
import { boundedArrayCheck, childrenStages } from '../../../src/reconcile/check-bounded-array';
import { mongoForFile } from '../../support/test-mongo';

/** Before MongoDB 5.2 (no $topN) the bounded-array check reads each parent's page in its own branch, and keeps what $topN keeps. */
const file = mongoForFile();
let db: Db;
beforeAll(async () => {
  db = file.client.db(file.mongo.freshDb('bounded_array_stages').databaseName);
  // Parents with 0, 1, 3 and 7 children; equal times broken by _id, as the array's sort says.
  const children = [
    ...[{ postId: 'b', at: 5 }],
    ...[3, 1, 2].map((at) => ({ postId: 'c', at })),
    ...[4, 9, 9, 1, 7, 9, 2].map((at) => ({ postId: 'd', at })),
  ].map((child, index) => ({ _id: index, ...child }));
  await db.collection('comments').insertMany(children as Document[]);
  await db.collection('posts').insertMany(['a', 'b', 'c', 'd'].map((_id) => ({ _id, recent: [] })) as Document[]);
});

const array = {
  coordinate: 'Post.recent',
  collection: 'posts',
  path: 'recent',
  parentKey: '_id',
  childType: 'Comment',
  childCollection: 'comments',
  childKey: 'postId',
  sort: [
    { path: 'at', direction: -1 as const },
    { path: '_id', direction: -1 as const },
  ],
  limit: 3,
};
const keys = ['a', 'b', 'c', 'd'];
const expected = { b: [0], c: [1, 3, 2], d: [9, 6, 5] };

it('gives each parent its first `limit` children in sort order, with $topN or in one branch per parent', async () => {
  const run = async (hasTopN: boolean) => {
    const groups = await db.collection('comments').aggregate(childrenStages(array, keys, hasTopN)).toArray();
    return Object.fromEntries(groups.map((group) => [group._id as string, (group.docs as Document[]).map((doc) => doc._id as number)]));
  };
  expect(await run(true)).toEqual(expected);
  expect(await run(false)).toEqual(expected);
  expect(childrenStages(array, keys, true).map((stage) => Object.keys(stage)[0])).toEqual(['$match', '$group']);
  expect(childrenStages(array, keys, false).map((stage) => Object.keys(stage)[0])).toEqual(['$match', '$sort', '$limit', '$unionWith', '$unionWith', '$unionWith', '$group']);
  expect(await db.collection('comments').aggregate(childrenStages(array, [], false)).toArray()).toEqual([]);
  // Parents sharing a key: one branch for it, so no child comes twice.
  expect(childrenStages(array, ['c', 'd', 'c'], false).map((stage) => Object.keys(stage)[0])).toEqual(['$match', '$sort', '$limit', '$unionWith', '$group']);
  const shared = await db.collection('comments').aggregate(childrenStages(array, ['c', 'd', 'c'], false)).toArray();
  expect(Object.fromEntries(shared.map((group) => [group._id as string, (group.docs as Document[]).map((doc) => doc._id as number)]))).toEqual({ c: expected.c, d: expected.d });
});

it('repairs the same arrays on a server before 5.2 as on a current one', async () => {
  const parents = await db.collection('posts').find({}, { sort: { _id: 1 } }).toArray();
  const repairsAt = async (version: string) => {
    const stages: string[][] = [];
    const listener = (event: CommandStartedEvent) => {
      if (event.commandName === 'aggregate') stages.push((event.command.pipeline as Document[]).map((stage) => Object.keys(stage)[0]!));
    };
    file.client.on('commandStarted', listener);
    try {
      const check = boundedArrayCheck(db, array, [], async () => version);
      const repairs = (await check.check(parents)).map((repair) => [repair.id, (repair.update.$set as Document).recent.map((doc: Document) => Number(doc._id))]);
      return { repairs, stages };
    } finally {
      file.client.off('commandStarted', listener);
    }
  };
  const current = await repairsAt('7.0.12');
  expect(current.repairs).toEqual([
    ['b', expected.b],
    ['c', expected.c],
    ['d', expected.d],
  ]);
  expect(current.stages).toEqual([['$match', '$group']]);
  const older = await repairsAt('5.0.14');
  expect(older.repairs).toEqual(current.repairs);
  expect(older.stages).toEqual([['$match', '$sort', '$limit', '$unionWith', '$unionWith', '$unionWith', '$group']]);
});
