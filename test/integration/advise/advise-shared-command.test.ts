import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ObjectId, type Db } from 'mongodb';
import { readWorkload } from 'docjoin';
import { recommend } from '../../../src/advise/recommend/recommend';
import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { startSdlGateway } from '../../support/sdl-gateway';

/**
 * A level's bounded reads of one collection go out in one command: a bare-count aggregate selected
 * beside the page of the same children rides in the page's command, which the report counts for both
 * fields. A `@counter` would take the count out of that command but not the command out of the query,
 * so `docjoin advise` must not promise the round trip, while the same count read alone earns one.
 */
const sdl = (counted: boolean) => /* GraphQL */ `
  type Query { posts(first: Int = 20): [Post!]! @list }
  type Post @collection(name: "posts") {
    id: ID!
    title: String!
    ${counted ? 'commentsCount: Int! @counter(of: "Post.comments")' : ''}
    comments(first: Int = 20): [Comment!]! @join(localField: "_id", foreignField: "postId")
    commentsAggregate: CommentAggregate! @aggregate(of: "comments", fields: ["score"])
  }
  type Comment @collection(name: "comments") { id: ID! text: String! score: Int! }
`;
const WITH_PAGE = '{ posts(first: 5) { title comments(first: 2) { text } commentsAggregate { count } } }';
const ALONE = '{ posts(first: 5) { title commentsAggregate { count } } }';

const posts = Array.from({ length: 5 }, () => new ObjectId());
const seed = (counted: boolean) => async (db: Db) => {
  await db.collection('posts').insertMany(posts.map((_id, index) => ({ _id, title: `p${index}`, ...(counted && { commentsCount: 3 }) })));
  await db.collection('comments').createIndex({ postId: 1, _id: 1 });
  await db.collection('comments').insertMany(posts.flatMap((postId) => [1, 2, 3].map((score) => ({ postId, text: 't', score }))));
};

/** The round trips of `query` run `times` over the schema with or without the counter, and the workload recorded. */
async function run(query: string, counted: boolean, times: number) {
  const folder = mkdtempSync(join(tmpdir(), 'advise-shared-command-'));
  const file = join(folder, 'workload.jsonl');
  const served = await startSdlGateway({ dbPrefix: 'advise_shared', typeDefs: sdl(counted), prepare: seed(counted), gateway: { workload: { file } } });
  let roundTrips = 0;
  try {
    for (let index = 0; index < times; index++) {
      const result = await served.gateway.execute({ query });
      expect(result.errors).toBeUndefined();
      roundTrips += result.cost!.roundTrips;
    }
  } finally {
    await served.stop();
  }
  const workload = await readWorkload({ file });
  rmSync(folder, { recursive: true, force: true });
  return { roundTrips, workload };
}

const adviceFor = (workload: Awaited<ReturnType<typeof readWorkload>>) =>
  recommend({ storageMap: buildWriteModelFromSdl(withDirectiveTypeDefs(sdl(false))).storageMap, workload }).fields.find((field) => field.coordinate === 'Post.comments')!;

it('advises no counter for a count that rides in its page\'s command, which a counter would not save', async () => {
  const before = await run(WITH_PAGE, false, 20);
  const after = await run(WITH_PAGE, true, 20);
  // The posts' find and the comments' one aggregate, with the counter or without.
  expect([before.roundTrips, after.roundTrips]).toEqual([40, 40]);
  expect(adviceFor(before.workload).kind).toBe('keep');
});

it('advises a counter for the same count read alone, saving the round trip it measures', async () => {
  const before = await run(ALONE, false, 20);
  const after = await run(ALONE, true, 20);
  expect([before.roundTrips, after.roundTrips]).toEqual([40, 20]);
  const advice = adviceFor(before.workload) as { kind: string; effect: { roundTripsPer1000Queries: { before: number; after: number } } };
  expect(advice.kind).toBe('add-counter');
  expect(advice.effect.roundTripsPer1000Queries).toEqual({ before: 1000, after: 0 });
});
