/**
 * Implicit collection creation (MongoDB docs: "Create a Collection"): an insert, an upsert or a
 * findAndModify that upserts creates a missing collection; an update, a findAndModify or a delete that
 * matches nothing creates none. A collection a transaction's insert created goes away if the
 * transaction aborts, and stays when it commits. Runs unchanged against MONGODB_URI.
 */
import { useCompatDatabase, useReplicaSetGuard } from './support/compat-helpers';

const ctx = useCompatDatabase('compat_implicit');
const { skipWithoutReplicaSet } = useReplicaSetGuard(() => ({ db: ctx.db, isEmbedded: ctx.mongo.isEmbedded }));
const names = async () => (await ctx.db.listCollections({}, { nameOnly: true }).toArray()).map((entry) => entry.name).filter((name) => !name.startsWith('system.')).sort();

test('writes that match nothing create no collection; an upsert does', async () => {
  expect(await ctx.db.collection('ghost').updateMany({ _id: 1 as never }, { $inc: { n: 1 } })).toMatchObject({ matchedCount: 0, modifiedCount: 0 });
  expect(await ctx.db.collection('ghost').findOneAndUpdate({ _id: 1 as never }, { $inc: { n: 1 } })).toBeNull();
  expect(await ctx.db.collection('ghost').findOneAndDelete({ _id: 1 as never })).toBeNull();
  expect(await ctx.db.collection('ghost').deleteMany({})).toMatchObject({ deletedCount: 0 });
  expect(await names()).toEqual([]);
  await ctx.db.collection('upserted').updateOne({ _id: 1 as never }, { $set: { n: 1 } }, { upsert: true });
  await ctx.db.collection('found').findOneAndUpdate({ _id: 1 as never }, { $set: { n: 1 } }, { upsert: true });
  expect(await names()).toEqual(['found', 'upserted']);
});

test('an aborted transaction takes away the collection its insert created; a committed one keeps it', async () => {
  if (skipWithoutReplicaSet()) return;
  for (const [name, end] of [['aborted', 'abortTransaction'], ['committed', 'commitTransaction']] as const) {
    const session = ctx.mongo.client.startSession();
    try {
      session.startTransaction();
      await ctx.db.collection(name).insertOne({ n: 1 }, { session });
      await session[end]();
    } finally {
      await session.endSession();
    }
  }
  expect((await names()).filter((name) => name === 'aborted' || name === 'committed')).toEqual(['committed']);
});
