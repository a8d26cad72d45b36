import { probeLookupCosts } from '../../../src/advise/probe-lookup-costs';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';

let mongo: TestMongo;
beforeAll(async () => {
  mongo = await startTestMongo();
});
afterAll(async () => {
  await mongo?.stop();
});

it('times the largest collection a lookup could read, and refuses, saying why, when each is too small to tell a document from the noise', async () => {
  const db = mongo.freshDb('probe');
  await db.collection('small').insertMany(Array.from({ length: 49 }, (_, index) => ({ index })));
  await db.collection('large').insertMany(Array.from({ length: 200 }, (_, index) => ({ index, text: 'x'.repeat(2000) })));
  await expect(probeLookupCosts(db, ['small'])).rejects.toThrow('no collection a lookup could read holds 50 documents');
  await expect(probeLookupCosts(db, [])).rejects.toThrow('no collection a lookup could read holds 50 documents');
  // Timed, so either outcome: costs the timer told apart (positive), or a refusal saying it could not (the CLI then says so).
  const outcome: unknown = await probeLookupCosts(db, ['small', 'large', 'small']).catch((error: unknown) => error);
  if (outcome instanceof Error) {
    expect(outcome.message).toMatch(/^timing \d+ documents of large against one, and with a lookup each against without, showed no difference the timer could tell$/);
  } else {
    expect(outcome).toEqual({ collection: 'large', byteMs: expect.any(Number), parentMs: expect.any(Number) });
    const { byteMs, parentMs } = outcome as { byteMs: number; parentMs: number };
    expect(byteMs).toBeGreaterThan(0);
    expect(parentMs).toBeGreaterThan(0);
  }
});
