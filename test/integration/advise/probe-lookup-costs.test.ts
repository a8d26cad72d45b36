import { probeLookupCosts } from '../../../src/advise/probe-lookup-costs';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';

let mongo: TestMongo;
beforeAll(async () => {
  mongo = await startTestMongo();
});
afterAll(async () => {
  await mongo?.stop();
});

it('times the largest collection a lookup could read, and none when each is too small to tell a document from the noise', async () => {
  const db = mongo.freshDb('probe');
  await db.collection('small').insertMany(Array.from({ length: 49 }, (_, index) => ({ index })));
  await db.collection('large').insertMany(Array.from({ length: 120 }, (_, index) => ({ index, text: 'x'.repeat(index) })));
  expect(await probeLookupCosts(db, ['small'])).toBeUndefined();
  expect(await probeLookupCosts(db, [])).toBeUndefined();
  const probed = await probeLookupCosts(db, ['small', 'large', 'small']);
  expect(probed).toEqual({ collection: 'large', byteMs: expect.any(Number), parentMs: expect.any(Number) });
  for (const cost of [probed!.byteMs, probed!.parentMs]) {
    expect(Number.isFinite(cost)).toBe(true);
    expect(cost).toBeGreaterThanOrEqual(0);
  }
});
