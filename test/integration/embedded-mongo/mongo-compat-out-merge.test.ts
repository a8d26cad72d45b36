/**
 * The writing aggregation stages (MongoDB docs: "$out", "$merge"): `$out` replaces a collection
 * (options and indexes kept, nothing changed on failure); `$merge` merges by `on` fields with
 * whenMatched replace/merge/keepExisting/fail/pipeline and whenNotMatched insert/discard/fail.
 * Runs unchanged against MONGODB_URI.
 */
import type { Document } from 'mongodb';
import { expectServerError, useCompatDatabase } from './support/compat-helpers';

const ctx = useCompatDatabase('compat_out_merge');

/** A fresh collection holding `docs`. */
async function seeded(name: string, docs: Document[]): Promise<ReturnType<typeof ctx.db.collection>> {
  const collection = ctx.db.collection(name);
  if (docs.length > 0) await collection.insertMany(docs.map((doc) => ({ ...doc })));
  return collection;
}

const sortedById = (name: string, db = ctx.db) => db.collection(name).find().sort({ _id: 1 }).toArray();

describe('$out', () => {
  test('writes the results into a new collection; the cursor is empty', async () => {
    const source = await seeded('out_source', [
      { _id: 1, cat: 'a', qty: 1 },
      { _id: 2, cat: 'b', qty: 2 },
      { _id: 3, cat: 'a', qty: 3 },
    ]);
    const cursor = await source.aggregate([{ $match: { cat: 'a' } }, { $project: { qty: 1 } }, { $out: 'out_new' }]).toArray();
    expect(cursor).toEqual([]);
    expect(await sortedById('out_new')).toEqual([
      { _id: 1, qty: 1 },
      { _id: 3, qty: 3 },
    ]);
  });

  test('replaces the documents of an existing collection and keeps its indexes', async () => {
    const source = await seeded('out_replace_source', [{ _id: 1, sku: 'x' }]);
    const target = await seeded('out_replace_target', [{ _id: 9, sku: 'old' }]);
    await target.createIndex({ sku: 1 }, { name: 'sku_1', unique: true });
    await source.aggregate([{ $out: 'out_replace_target' }]).toArray();
    expect(await sortedById('out_replace_target')).toEqual([{ _id: 1, sku: 'x' }]);
    const indexes = await target.listIndexes().toArray();
    expect(indexes.map((index) => ({ name: index.name, unique: index.unique }))).toEqual([
      { name: '_id_', unique: undefined },
      { name: 'sku_1', unique: true },
    ]);
  });

  test('results without _id get one', async () => {
    const source = await seeded('out_no_id_source', [{ _id: 1, n: 1 }]);
    await source.aggregate([{ $project: { _id: 0, n: 1 } }, { $out: 'out_no_id' }]).toArray();
    const [doc] = await sortedById('out_no_id');
    expect(Object.keys(doc!)).toEqual(['_id', 'n']);
    expect(doc!.n).toBe(1);
  });

  test('a duplicate _id fails with 11000 and leaves the target as it was', async () => {
    const source = await seeded('out_dup_source', [
      { _id: 1, cat: 'a' },
      { _id: 2, cat: 'a' },
    ]);
    await seeded('out_dup_target', [{ _id: 'kept' }]);
    await expectServerError(source.aggregate([{ $project: { _id: '$cat' } }, { $out: 'out_dup_target' }]).toArray(), 11000, 'DuplicateKey');
    expect(await sortedById('out_dup_target')).toEqual([{ _id: 'kept' }]);
  });

  test('{ db, coll } writes into another database', async () => {
    const other = ctx.mongo.freshDb('compat_out_other');
    const source = await seeded('out_db_source', [{ _id: 1 }]);
    await source.aggregate([{ $out: { db: other.databaseName, coll: 'copied' } }]).toArray();
    expect(await sortedById('copied', other)).toEqual([{ _id: 1 }]);
  });

  test('$out anywhere but last fails with 40601', async () => {
    const source = await seeded('out_not_last', [{ _id: 1 }]);
    await expectServerError(source.aggregate([{ $out: 'x' }, { $match: {} }]).toArray(), 40601, 'Location40601');
  });
});

describe('$merge', () => {
  const target = [
    { _id: 1, qty: 1, note: 'kept' },
    { _id: 3, qty: 3 },
  ];
  const source = [
    { _id: 1, qty: 10 },
    { _id: 2, qty: 20 },
  ];

  test('the string form merges by _id: matched documents get the new fields, others are inserted', async () => {
    const from = await seeded('merge_default_source', source);
    await seeded('merge_default_target', target);
    expect(await from.aggregate([{ $merge: 'merge_default_target' }]).toArray()).toEqual([]);
    expect(await sortedById('merge_default_target')).toEqual([
      { _id: 1, qty: 10, note: 'kept' },
      { _id: 2, qty: 20 },
      { _id: 3, qty: 3 },
    ]);
  });

  test('whenMatched: replace replaces the whole document', async () => {
    const from = await seeded('merge_replace_source', source);
    await seeded('merge_replace_target', target);
    await from.aggregate([{ $merge: { into: 'merge_replace_target', whenMatched: 'replace', whenNotMatched: 'insert' } }]).toArray();
    expect(await sortedById('merge_replace_target')).toEqual([
      { _id: 1, qty: 10 },
      { _id: 2, qty: 20 },
      { _id: 3, qty: 3 },
    ]);
  });

  test('whenMatched: keepExisting leaves matched documents alone', async () => {
    const from = await seeded('merge_keep_source', source);
    await seeded('merge_keep_target', target);
    await from.aggregate([{ $merge: { into: 'merge_keep_target', whenMatched: 'keepExisting' } }]).toArray();
    expect(await sortedById('merge_keep_target')).toEqual([
      { _id: 1, qty: 1, note: 'kept' },
      { _id: 2, qty: 20 },
      { _id: 3, qty: 3 },
    ]);
  });

  test('whenMatched: fail fails with 11000; the unmatched result is still inserted (batches are unordered)', async () => {
    const from = await seeded('merge_fail_source', source);
    await seeded('merge_fail_target', target);
    const error = await expectServerError(from.aggregate([{ $merge: { into: 'merge_fail_target', whenMatched: 'fail' } }]).toArray(), 11000, 'DuplicateKey');
    expect(error.errmsg).toMatch(/\$merge with whenMatched: fail found an existing document with the same values for the 'on' field/);
    expect(await sortedById('merge_fail_target')).toEqual([
      { _id: 1, qty: 1, note: 'kept' },
      { _id: 2, qty: 20 },
      { _id: 3, qty: 3 },
    ]);
  });

  test('whenNotMatched: discard only updates matched documents', async () => {
    const from = await seeded('merge_discard_source', source);
    await seeded('merge_discard_target', target);
    await from.aggregate([{ $merge: { into: 'merge_discard_target', whenMatched: 'merge', whenNotMatched: 'discard' } }]).toArray();
    expect(await sortedById('merge_discard_target')).toEqual([
      { _id: 1, qty: 10, note: 'kept' },
      { _id: 3, qty: 3 },
    ]);
  });

  test('whenNotMatched: fail fails with 13113 MergeStageNoMatchingDocument', async () => {
    const from = await seeded('merge_not_matched_source', source);
    await seeded('merge_not_matched_target', target);
    await expectServerError(
      from.aggregate([{ $merge: { into: 'merge_not_matched_target', whenMatched: 'replace', whenNotMatched: 'fail' } }]).toArray(),
      13113,
      'MergeStageNoMatchingDocument',
    );
  });

  test('whenMatched: a pipeline update reads the result as $$new, and let variables evaluated against it', async () => {
    const from = await seeded('merge_pipeline_source', source);
    await seeded('merge_pipeline_target', target);
    await from
      .aggregate([
        {
          $merge: {
            into: 'merge_pipeline_target',
            let: { added: '$qty' },
            whenMatched: [{ $set: { qty: { $add: ['$qty', '$$added'] }, last: '$$new.qty' } }],
            whenNotMatched: 'insert',
          },
        },
      ])
      .toArray();
    expect(await sortedById('merge_pipeline_target')).toEqual([
      { _id: 1, qty: 11, note: 'kept', last: 10 },
      { _id: 2, qty: 20 },
      { _id: 3, qty: 3 },
    ]);
  });

  test('on other fields needs a unique index on them; matched documents keep their _id', async () => {
    const from = await seeded('merge_on_source', [
      { _id: 1, sku: 'a', qty: 5 },
      { _id: 2, sku: 'b', qty: 7 },
    ]);
    const into = await seeded('merge_on_target', [{ _id: 100, sku: 'a', qty: 1 }]);
    const stages = [{ $project: { _id: 0, sku: 1, qty: 1 } }, { $merge: { into: 'merge_on_target', on: 'sku' } }];
    await expectServerError(from.aggregate(stages).toArray(), 51183, 'Location51183');
    await into.createIndex({ sku: 1 }, { unique: true });
    await from.aggregate(stages).toArray();
    expect(await into.find({}, { projection: { _id: 0 } }).sort({ sku: 1 }).toArray()).toEqual([
      { sku: 'a', qty: 5 },
      { sku: 'b', qty: 7 },
    ]);
    expect(await into.findOne({ sku: 'a' })).toEqual({ _id: 100, sku: 'a', qty: 5 });
  });

  test('changing the _id of a matched document fails with 66 ImmutableField', async () => {
    const from = await seeded('merge_immutable_source', [{ _id: 1, sku: 'a' }]);
    const into = await seeded('merge_immutable_target', [{ _id: 100, sku: 'a' }]);
    await into.createIndex({ sku: 1 }, { unique: true });
    await expectServerError(from.aggregate([{ $merge: { into: 'merge_immutable_target', on: 'sku' } }]).toArray(), 66, 'ImmutableField');
  });

  test('an unsupported mode pair fails with 51181', async () => {
    const from = await seeded('merge_modes_source', source);
    await expectServerError(
      from.aggregate([{ $merge: { into: 'merge_modes_target', whenMatched: 'keepExisting', whenNotMatched: 'fail' } }]).toArray(),
      51181,
      'Location51181',
    );
  });
});
