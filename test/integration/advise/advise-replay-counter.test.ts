import { SHOP_IDS } from '../../../examples/shop/seed/seed-shop';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { expectPredictedWrites, type AdviceReplay, type ReplayedOperation } from './support/advise-replay';
import { adviseAndReplayShop } from './support/shop-replay';

/**
 * Issue 35 on the shop: a workload that reads how many products each category holds far more often
 * than it adds products. `docjoin advise` gives a `@counter` of `Category.products`, priced on the
 * reads it saves and the `$inc` each new product then sends; `docjoin migrate` applies it to a fresh
 * copy and the replay measures the writes it predicted.
 */
const { tea, cups } = SHOP_IDS;

function countingWorkload(): ReplayedOperation[] {
  const operations: ReplayedOperation[] = [];
  for (let i = 0; i < 30; i++) operations.push({ query: '{ categories { name productsAggregate { count } } }' });
  for (let i = 0; i < 10; i++) operations.push({ query: '{ categories { name productsAggregate { min { price } } } }' });
  for (let i = 0; i < 4; i++) {
    const category = (i % 2 === 0 ? tea : cups).toHexString();
    operations.push({ query: `mutation { createProduct(input: { sku: "NEW-${i}", name: "New ${i}", price: ${10 + i}, category: "${category}" }) { name } }` });
  }
  return operations;
}

let mongo: TestMongo;
let replay: AdviceReplay;
beforeAll(async () => {
  mongo = await startTestMongo();
  replay = await adviseAndReplayShop(mongo, countingWorkload);
}, 240_000);
afterAll(async () => {
  await mongo?.stop();
});

it('advises a @counter for a list whose aggregates mostly read a bare count, priced on its reads and its writes', () => {
  const products = replay.report.fields.find((field) => field.coordinate === 'Category.products')!;
  expect(products).toMatchObject({ kind: 'add-counter', counterField: 'Category.productsCount' });
  expect(products.evidence).toContain('30 of 40 queries aggregating Category.products asked only for an unfiltered count');
  // Each category page's count aggregate goes (30 of the 40 aggregates of 40 queries). Each new product
  // moves its category's count: one document more, and the read that checked the category exists becomes
  // the $inc that finds it, so the round trips stay.
  expect(products.effect.roundTripsPer1000Queries).toEqual({ before: 1000, after: 250 });
  expect(products.effect.documentsWrittenPer1000Mutations).toEqual({ before: 1000, after: 2000 });
  expect(products.effect.mutationRoundTripsPer1000Mutations).toEqual({ before: 4000, after: 4000 });
  expect(replay.printed).toContain('Category.products: add-counter');
});

it('predicts the documents written and the mutation round trips the migrated schema measures, within 10%', () => {
  expect(replay.replays.map((replayed) => replayed.advice.coordinate)).toEqual(['Category.products']);
  expectPredictedWrites(replay, 'shop');
});
