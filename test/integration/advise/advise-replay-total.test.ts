import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Db } from 'mongodb';
import { join } from 'node:path';
import { SHOP_IDS } from '../../../examples/shop/seed/seed-shop';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { expectPredictedWrites, type AdviceReplay, type ReplayedOperation } from './support/advise-replay';
import { adviseAndReplayShop, SHOP_CONFIG, SHOP_DIR } from './support/shop-replay';

/**
 * Issue 35's stored total on the shop without `Product.ratingTotal`: a workload that reads the mean
 * rating of every product far more often than reviews come and change. `docjoin advise` gives a
 * `@total` of `Review.rating` over `Product.reviews`, priced on the reads it saves and on what each
 * review written then moves; `docjoin migrate --advice` applies it to a fresh copy, and the replay
 * measures the writes it predicted.
 */
const { matcha, sencha } = SHOP_IDS;

function averagingWorkload(reviewIds: readonly string[]): ReplayedOperation[] {
  const operations: ReplayedOperation[] = [];
  for (let i = 0; i < 30; i++) operations.push({ query: '{ products { name reviewsAggregate { count avg { rating } } } }' });
  for (let i = 0; i < 10; i++) operations.push({ query: '{ products { reviewsAggregate { min { rating } } } }' });
  for (let i = 0; i < 4; i++) {
    const product = (i % 2 === 0 ? matcha : sencha).toHexString();
    operations.push({ query: `mutation { createReview(input: { product: "${product}", rating: ${1 + i}, text: "Review ${i}", createdAt: "2026-11-2${i}T10:00:00.000Z" }) { rating } }` });
  }
  for (const id of reviewIds) operations.push({ query: `mutation { updateReview(id: "${id}", input: { rating: 2 }) { rating } }` });
  return operations;
}

let mongo: TestMongo;
let folder: string;
let replay: AdviceReplay;
beforeAll(async () => {
  mongo = await startTestMongo();
  folder = mkdtempSync(join(tmpdir(), 'docjoin-total-replay-'));
  // The shop as it was before it declared its total.
  cpSync(join(SHOP_DIR, 'schema'), join(folder, 'schema'), { recursive: true });
  const schemaFile = join(folder, 'schema', 'shop.graphql');
  const declared = /\n\s*"[^"\n]*"\n\s*ratingTotal: Float! @total\(of: "Product.reviews", field: "rating"\)/;
  const before = readFileSync(schemaFile, 'utf8');
  expect(before).toMatch(declared);
  writeFileSync(schemaFile, before.replace(declared, ''));
  const config = join(folder, 'docjoin.config.ts');
  writeFileSync(config, `import shop from ${JSON.stringify(SHOP_CONFIG)};\nexport default { ...shop, schema: 'schema' };\n`);
  const reviewIds = async (db: Db) => (await db.collection('reviews').find({}, { projection: { _id: 1 } }).toArray()).map((review) => review._id.toHexString());
  replay = await adviseAndReplayShop(mongo, async (db) => averagingWorkload(await reviewIds(db)), { dir: join(folder, 'schema'), config });
}, 240_000);
afterAll(async () => {
  rmSync(folder, { recursive: true, force: true });
  await mongo?.stop();
});

it('advises a @total of the rating over Product.reviews, priced on the means it answers and the reviews that move it', () => {
  const reviews = replay.report.fields.find((field) => field.coordinate === 'Product.reviews')!;
  expect(reviews).toMatchObject({ kind: 'add-total', totalField: 'Product.ratingTotal', summedField: 'rating' });
  expect(reviews.evidence).toContain('30 of 40 queries aggregating Product.reviews asked only for what a total of rating answers (its unfiltered sum or mean, the count)');
  // Each products page's aggregate goes for 30 of the 40 queries.
  expect(reviews.effect.roundTripsPer1000Queries).toEqual({ before: 1000, after: 250 });
  expect(replay.printed).toContain('Product.reviews: add-total');
});

it('predicts the documents written and the mutation round trips the migrated schema measures, within 10%', () => {
  expect(replay.replays.map((replayed) => replayed.advice.coordinate)).toEqual(['Product.reviews']);
  expectPredictedWrites(replay, 'shop without its total');
});
