/**
 * $lookup by localField/foreignField, case for case from MongoDB's
 * jstests/aggregation/sources/lookup/lookup_equijoin_semantics_lib.js, which every join algorithm of
 * MongoDB (nested loop, indexed loop, hash join) passes. Each case runs without an index, with one on
 * the foreign field, and with a paging `pipeline` (the embedded server reads each parent's page from
 * storage), with and without the index. Left out, as that file's answers for them depend on find's
 * null semantics on a dotted path: null in local against a missing or scalar foreign path.
 * Runs unchanged against MONGODB_URI.
 */
import type { Document } from 'mongodb';
import { useCompatDatabase } from './support/compat-helpers';

const ctx = useCompatDatabase('compat_lookup_equijoin');

interface JoinCase {
  readonly name: string;
  readonly local: Document[];
  readonly localField: string;
  readonly foreign: Document[];
  readonly foreignField: string;
  /** Per local `_id`, the `_id`s of the foreign documents it joins, sorted. */
  readonly expected: Record<string, unknown[]>;
}

const cases: JoinCase[] = [];

/** runTest_SingleForeignRecord: which local documents the one foreign document joins. */
function singleForeign(name: string, local: Document[], localField: string, foreignRecord: Document, foreignField: string, matching: unknown[]): void {
  const expected = Object.fromEntries(local.map((doc) => [String(doc._id), matching.includes(doc._id) ? [foreignRecord._id] : []]));
  cases.push({ name, local, localField, foreign: [foreignRecord], foreignField, expected });
}

/** runTest_SingleLocalRecord: which foreign documents the one local document joins. */
function singleLocal(name: string, localRecord: Document, localField: string, foreign: Document[], foreignField: string, matching: unknown[]): void {
  cases.push({ name, local: [localRecord], localField, foreign, foreignField, expected: { [String(localRecord._id)]: [...matching].sort() } });
}

const nullAndMissing = [
  { _id: 0, no_a: 1 },
  { _id: 1, a: null },
  { _id: 2, a: [null, 1] },
  { _id: 10, a: [] },
  { _id: 20, a: 1 },
  { _id: 21, a: { x: null } },
  { _id: 22, a: [[null, 1], 2] },
  { _id: 23, a: false },
  { _id: 24, a: 0 },
  { _id: 25, a: {} },
  { _id: 26, a: '' },
];
singleForeign('null in foreign joins a missing, null or empty local field, and an array holding null', nullAndMissing, 'a', { _id: 0, b: null }, 'b', [0, 1, 2, 10]);
singleLocal('null in local joins a missing or null foreign field, and an array holding null', { _id: 0, b: null }, 'b', nullAndMissing, 'a', [0, 1, 2]);
singleForeign('missing in foreign joins as null does', nullAndMissing, 'a', { _id: 0, no_b: 1 }, 'b', [0, 1, 2, 10]);
singleLocal('missing in local joins as null does', { _id: 0, no_b: 1 }, 'b', nullAndMissing, 'a', [0, 1, 2]);

const holdingOne = [
  { _id: 0, a: 1, y: 2 },
  { _id: 1, a: [1] },
  { _id: 2, a: [1, 2, 3] },
  { _id: 3, a: [1, [2, 3]] },
  { _id: 4, a: [1, [1, 2]] },
  { _id: 5, a: [1, 2, 1] },
  { _id: 6, a: [1, null] },
  { _id: 7, a: [1, []] },
  { _id: 10, a: 2 },
  { _id: 11, a: [[1], 2] },
  { _id: 12, a: [2, 3] },
  { _id: 13, a: { y: 1 } },
  { _id: 14, no_a: 1 },
];
singleForeign('a scalar in foreign joins a local field equal to it or holding it (not in a nested array)', holdingOne, 'a', { _id: 0, b: 1 }, 'b', [0, 1, 2, 3, 4, 5, 6, 7]);
singleLocal('a scalar in local joins a foreign field equal to it or holding it (not in a nested array)', { _id: 0, b: 1 }, 'b', holdingOne, 'a', [0, 1, 2, 3, 4, 5, 6, 7]);

const arrays = [
  { _id: 0, a: [[1, 2], 3], y: 4 },
  { _id: 1, a: [[1, 2]] },
  { _id: 2, a: [1, 2], y: 3 },
  { _id: 10, a: [[[1, 2], 3], 4] },
  { _id: 11, a: [2, 1] },
  { _id: 12, a: [[2, 1], 3], y: [1, 2] },
  { _id: 13, a: [[2, 1], 3], y: [[1, 2], 3] },
  { _id: 14, a: null },
  { _id: 15, no_a: [1, 2] },
];
singleForeign('an array in foreign joins a local field holding it whole, or one of its elements', arrays, 'a', { _id: 0, b: [1, 2] }, 'b', [0, 1, 2, 11]);
singleLocal('an array in local joins by its elements only', { _id: 0, b: [1, 2] }, 'b', arrays, 'a', [2, 11]);
singleForeign('a nested array in foreign joins a local field holding that array', arrays, 'a', { _id: 0, b: [[1, 2], 42] }, 'b', [0, 1]);
singleLocal('a nested array in local joins a foreign field equal to it or holding it', { _id: 0, b: [[1, 2], 42] }, 'b', arrays, 'a', [0, 1, 2]);

const missingOnPath = [
  { _id: 0, a: { no_x: 1 } },
  { _id: 1, a: { no_x: [1, 2] } },
  { _id: 2, a: [{ no_x: 1 }, { no_x: 2 }] },
  { _id: 3, a: [{ no_x: 2 }, { x: 1 }] },
  { _id: 4, a: [{ no_x: [1, 2] }, { x: 1 }] },
  { _id: 5, a: { x: null } },
  { _id: 6, a: [{ x: null }, { x: 1 }] },
  { _id: 7, a: [{ x: null }, { x: [1] }] },
  { _id: 8, no_a: 1 },
  { _id: 9, a: [1] },
  { _id: 10, a: [] },
  { _id: 11, a: [[1]] },
  { _id: 12, a: [[]] },
  { _id: 20, a: { x: 2, y: 1 } },
  { _id: 21, a: [{ x: 2 }, { x: 3 }] },
];
singleForeign('a local path with no value joins null; one with some values joins only those', missingOnPath, 'a.x', { _id: 0, b: null }, 'b', [0, 1, 2, 5, 6, 7, 8, 9, 10, 11, 12]);

const scalarsOnPath = [
  { _id: 0, a: 1 },
  { _id: 1, no_a: 1 },
  { _id: 2, a: [1] },
  { _id: 3, a: { b: 1 } },
  { _id: 4, a: { no_b: 1 } },
  { _id: 5, a: { b: [1] } },
  { _id: 6, a: [{ b: { no_c: 1 } }, 1] },
  { _id: 7, a: { b: [{ no_c: 1 }, 1] } },
];
singleForeign('a local path ending at scalars on the way joins null', scalarsOnPath, 'a.b.c', { _id: 0, b: null }, 'b', [0, 1, 2, 3, 4, 5, 6, 7]);

const emptyArrays = [
  { _id: 0, a: [[]] },
  { _id: 1, a: [[], 1] },
  { _id: 2, a: [[], null] },
  { _id: 3, a: [] },
  { _id: 10, no_a: 1 },
  { _id: 11, a: null },
  { _id: 12, a: [null] },
  { _id: 13, a: [null, 1] },
  { _id: 20, a: 1 },
  { _id: 21, a: [[[], 1], 2] },
  { _id: 22, a: [1, 2] },
  { _id: 23, a: [[null, 1], 2] },
];
singleForeign('an empty array in foreign joins a local field holding an empty array', emptyArrays, 'a', { _id: 0, b: [] }, 'b', [0, 1, 2]);
singleLocal('an empty array in local joins as null', { _id: 0, b: [] }, 'b', emptyArrays, 'a', [2, 10, 11, 12, 13]);
singleForeign('a nested empty array in foreign joins a local field holding an empty array', emptyArrays, 'a', { _id: 0, b: [[], 42] }, 'b', [0, 1, 2]);
singleLocal('a nested empty array in local joins a foreign empty array, or one holding it', { _id: 0, b: [[], 42] }, 'b', emptyArrays, 'a', [0, 1, 2, 3]);

const numericPart = [
  { _id: 0, a: [{ x: 1 }, { x: 2 }] },
  { _id: 1, a: [{ x: [2, 3, 1] }] },
  { _id: 2, a: [{ x: 1 }, { y: 1 }] },
  { _id: 10, a: [{ x: 2 }, { x: 1 }] },
  { _id: 11, a: [{ x: [2, 3] }] },
  { _id: 12, a: { x: 1 } },
  { _id: 13, a: { x: [1, 2] } },
  { _id: 14, a: [{ y: 1 }, { x: 1 }] },
];
singleForeign('a numeric part of the local path picks an array element', numericPart, 'a.0.x', { _id: 0, b: 1 }, 'b', [0, 1, 2]);
singleLocal('a numeric part of the foreign path picks an array element', { _id: 0, b: 1 }, 'b', numericPart, 'a.0.x', [0, 1, 2]);

const ways: Array<{ way: string; index: boolean; extra: Document }> = [
  { way: 'no index', index: false, extra: {} },
  { way: 'an index on foreignField', index: true, extra: {} },
  { way: 'a paging pipeline, no index', index: false, extra: { pipeline: [{ $sort: { _id: 1 } }, { $limit: 100 }] } },
  { way: 'a paging pipeline and an index', index: true, extra: { pipeline: [{ $sort: { _id: 1 } }, { $limit: 100 }] } },
];

let counter = 0;
describe.each(ways)('$lookup localField/foreignField with $way', ({ index, extra }) => {
  test.each(cases)('$name', async ({ local, localField, foreign, foreignField, expected }) => {
    counter += 1;
    const localCollection = ctx.db.collection(`local_${counter}`);
    const foreignCollection = ctx.db.collection(`foreign_${counter}`);
    await localCollection.insertMany(local.map((doc) => ({ ...doc })));
    await foreignCollection.insertMany(foreign.map((doc) => ({ ...doc })));
    if (index) await foreignCollection.createIndex({ [foreignField]: 1 });
    const rows = await localCollection.aggregate([{ $lookup: { from: foreignCollection.collectionName, localField, foreignField, as: 'matched', ...extra } }]).toArray();
    const joined = Object.fromEntries(rows.map((row) => [String(row._id), (row.matched as Document[]).map((match) => match._id).sort()]));
    expect(joined).toEqual(expected);
  });
});
