/**
 * Schema validation with query operators (MongoDB docs: "Specify Validation With Query Operators"):
 * a collection created with `validator` refuses an insert, update, upsert or findAndModify whose
 * document fails it, with 121 DocumentValidationFailure (a write error carries no codeName);
 * `validationLevel: "off"` and `validationAction: "warn"` refuse nothing.
 * Runs unchanged against MONGODB_URI.
 */
import { expectServerError, useCompatDatabase } from './support/compat-helpers';

const ctx = useCompatDatabase('compat_validators');
const RATED = { rating: { $gte: 1, $lte: 5 } };

test('refuses an insert, an update, an upsert and a findAndModify whose document fails the validator, and stores nothing of it', async () => {
  await ctx.db.createCollection('reviews', { validator: RATED });
  const reviews = ctx.db.collection<{ _id: number; rating?: number }>('reviews');
  await reviews.insertOne({ _id: 1, rating: 4 });
  await expectServerError(reviews.insertOne({ _id: 2, rating: 9 }), 121);
  await expectServerError(reviews.updateOne({ _id: 1 }, { $set: { rating: 0 } }), 121);
  await expectServerError(reviews.updateOne({ _id: 3 }, { $set: { rating: 6 } }, { upsert: true }), 121);
  await expectServerError(reviews.findOneAndUpdate({ _id: 1 }, { $unset: { rating: '' } }), 121);
  await reviews.updateOne({ _id: 1 }, { $set: { rating: 5 } });
  expect(await reviews.find().toArray()).toEqual([{ _id: 1, rating: 5 }]);
});

test('at level off or with action warn, refuses nothing', async () => {
  await ctx.db.createCollection('unchecked', { validator: RATED, validationLevel: 'off' });
  await ctx.db.createCollection('warned', { validator: RATED, validationAction: 'warn' });
  await ctx.db.collection('unchecked').insertOne({ rating: 9 });
  await ctx.db.collection('warned').insertOne({ rating: 9 });
  expect([await ctx.db.collection('unchecked').countDocuments(), await ctx.db.collection('warned').countDocuments()]).toEqual([1, 1]);
});
