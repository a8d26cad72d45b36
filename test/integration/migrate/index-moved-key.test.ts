import { indexMovedKey } from '../../../src/migrate/index-moved-key';
import { mongoForFile } from '../../support/test-mongo';

/**
 * A key moved into a copy (`userId` → `user.id`) gets the indexes of the old key on the new path with
 * their options: unique and sparse, a partial filter naming the key (a unique index over every document
 * would collide on the parents without a reference), and the collation.
 */
const files = mongoForFile();

it('copies each index of the old key with its unique, partial filter and collation, once', async () => {
  const db = files.mongo.freshDb('index_moved_key');
  const profiles = db.collection('profiles');
  await profiles.createIndex({ userId: 1 }, { unique: true, partialFilterExpression: { $and: [{ userId: { $exists: true } }, { 'userId.kind': 'person' }] }, collation: { locale: 'en', strength: 2 } });
  await profiles.createIndex({ userId: 1, at: -1 }, { sparse: true });
  expect(await indexMovedKey(db, 'profiles', 'userId', 'user.id', { create: true })).toEqual([{ 'user.id': 1 }, { 'user.id': 1, at: -1 }]);
  const moved = (await profiles.listIndexes().toArray()).filter((index) => Object.hasOwn(index.key, 'user.id')).map(({ key, unique, sparse, partialFilterExpression, collation }) => ({ key, unique, sparse, partialFilterExpression, collation }));
  expect(moved).toEqual([
    { key: { 'user.id': 1 }, unique: true, sparse: undefined, partialFilterExpression: { $and: [{ 'user.id': { $exists: true } }, { 'user.id.kind': 'person' }] }, collation: expect.objectContaining({ locale: 'en', strength: 2 }) },
    { key: { 'user.id': 1, at: -1 }, unique: undefined, sparse: true, partialFilterExpression: undefined, collation: undefined },
  ]);
  expect(await indexMovedKey(db, 'profiles', 'userId', 'user.id', { create: true })).toEqual([]);
});
