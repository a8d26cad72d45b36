/**
 * What a data-statistics pass asks of the server: `$sample` (random documents, never the same one
 * twice), `$bsonSize` (a document's encoded size) and `$size` (an array's length), with MongoDB's
 * error codes for bad arguments. Runs unchanged against MONGODB_URI.
 */
import { BSON, Decimal128, Double, Long, ObjectId, type Document } from 'mongodb';
import { expectServerError, useCompatDatabase } from './support/compat-helpers';

const ctx = useCompatDatabase('compat_sampling');
const run = (collection: string, pipeline: Document[]) => ctx.db.collection(collection).aggregate(pipeline).toArray();

const TEN = Array.from({ length: 10 }, (_, i) => ({ _id: i, group: i < 4 ? 'a' : 'b' }));
const SIZED: Document[] = [
  { _id: 1, s: 'abc' },
  { _id: 2, d: new Double(1) },
  { _id: 3, i: 1 },
  {
    _id: 4,
    long: Long.fromNumber(7),
    decimal: Decimal128.fromString('1.50'),
    when: new Date(Date.UTC(2024, 0, 1)),
    ref: new ObjectId('65a000000000000000000001'),
    nothing: null,
    list: [1, 'two', { three: 3 }],
    sub: { name: 'nested', n: 2.5 },
  },
];

beforeAll(async () => {
  await ctx.db.collection('ten').insertMany(TEN as Document[]);
  await ctx.db.collection('sized').insertMany(SIZED);
});

const ids = (rows: Document[]) => rows.map((row) => row._id as number);

describe('$sample', () => {
  test('picks `size` distinct documents of the collection', async () => {
    for (let round = 0; round < 20; round++) {
      const picked = ids(await run('ten', [{ $sample: { size: 3 } }]));
      expect(picked).toHaveLength(3);
      expect(new Set(picked).size).toBe(3);
      for (const id of picked) expect(id >= 0 && id < 10).toBe(true);
    }
  });

  test('returns every document exactly once when size reaches the collection size', async () => {
    for (const size of [10, 11, 1000]) {
      expect(ids(await run('ten', [{ $sample: { size } }])).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }
  });

  test('samples what earlier stages pass on, and may follow another $sample', async () => {
    const picked = ids(await run('ten', [{ $match: { group: 'a' } }, { $sample: { size: 100 } }]));
    expect(picked.sort((a, b) => a - b)).toEqual([0, 1, 2, 3]);
    expect(await run('ten', [{ $sample: { size: 10 } }, { $sample: { size: 1 } }])).toHaveLength(1);
    expect(await run('ten', [{ $sample: { size: 4 } }, { $project: { _id: 0, group: 1 } }, { $count: 'n' }])).toEqual([{ n: 4 }]);
  });

  test('reaches every document (200 draws of one out of five miss one with probability 5 × 0.8^200)', async () => {
    const seen = new Set<number>();
    for (let draw = 0; draw < 200 && seen.size < 5; draw++) {
      for (const id of ids(await run('ten', [{ $match: { _id: { $lt: 5 } } }, { $sample: { size: 1 } }]))) seen.add(id);
    }
    expect([...seen].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4]);
  });

  test('a numeric size of any BSON type; a missing collection gives nothing', async () => {
    expect(await run('ten', [{ $sample: { size: Long.fromNumber(2) } }])).toHaveLength(2);
    expect(await run('ten', [{ $sample: { size: new Double(3) } }])).toHaveLength(3);
    expect(await run('no_such_collection', [{ $sample: { size: 5 } }])).toEqual([]);
  });

  // MongoDB source, document_source_sample.cpp createFromBson.
  test('rejects a malformed spec with MongoDB codes', async () => {
    const cases: Array<[unknown, number, RegExp]> = [
      ['string', 28745, /the \$sample stage specification must be an object/],
      [{ size: 'string' }, 28746, /size argument to \$sample must be a number/],
      [{ size: -1 }, 28747, /size argument to \$sample must not be negative/],
      [{ unknownOpt: true }, 28748, /unrecognized option to \$sample: unknownOpt/],
      [{}, 28749, /\$sample stage must specify a size/],
    ];
    for (const [spec, code, message] of cases) {
      const error = await expectServerError(run('ten', [{ $sample: spec }]), code, `Location${code}`);
      expect(error.errmsg).toMatch(message);
    }
  });
});

describe('$bsonSize', () => {
  test('the encoded size of each whole document, number types included', async () => {
    const rows = await run('sized', [{ $project: { bytes: { $bsonSize: '$$ROOT' } } }, { $sort: { _id: 1 } }]);
    // { _id: 1, s: 'abc' }: 4 (length) + 9 (_id: int32) + 11 (s: "abc") + 1 (terminator)
    expect(rows[0]).toEqual({ _id: 1, bytes: 25 });
    // A double is 8 bytes, an int32 4, even when both hold 1.
    expect(rows[1]).toEqual({ _id: 2, bytes: 25 });
    expect(rows[2]).toEqual({ _id: 3, bytes: 21 });
    expect(rows).toEqual(SIZED.map((doc) => ({ _id: doc._id, bytes: BSON.calculateObjectSize(doc) })));
  });

  test('a subdocument, the argument-list form, and null for null or missing', async () => {
    const [row] = await run('sized', [
      { $match: { _id: 4 } },
      { $project: { sub: { $bsonSize: '$sub' }, listed: { $bsonSize: ['$sub'] }, nothing: { $bsonSize: '$nothing' }, missing: { $bsonSize: '$absent' } } },
    ]);
    const subBytes = BSON.calculateObjectSize(SIZED[3]!.sub as Document);
    expect(row).toEqual({ _id: 4, sub: subBytes, listed: subBytes, nothing: null, missing: null });
  });

  test('anything but a document fails with 31393 naming its type', async () => {
    for (const [input, type] of [[123, 'int'], ['abc', 'string'], [[{ x: 1 }], 'array']] as const) {
      const error = await expectServerError(run('sized', [{ $match: { _id: 1 } }, { $project: { x: { $bsonSize: { $literal: input } } } }]), 31393, 'Location31393');
      expect(error.errmsg).toMatch(`$bsonSize requires a document input, found: ${type}`);
    }
  });
});

describe('$size', () => {
  test('the length of an array, also in the argument-list form', async () => {
    const [row] = await run('sized', [{ $match: { _id: 4 } }, { $project: { n: { $size: '$list' }, listed: { $size: ['$list'] }, literal: { $size: [[1, 2]] } } }]);
    expect(row).toEqual({ _id: 4, n: 3, listed: 3, literal: 2 });
  });

  test('missing, null and non-arrays fail with 17124; two arguments with 16020', async () => {
    for (const [path, type] of [['$absent', 'missing'], ['$nothing', 'null'], ['$sub', 'object']] as const) {
      const error = await expectServerError(run('sized', [{ $match: { _id: 4 } }, { $project: { n: { $size: path } } }]), 17124, 'Location17124');
      expect(error.errmsg).toMatch(`The argument to $size must be an array, but was of type: ${type}`);
    }
    const error = await expectServerError(run('sized', [{ $match: { _id: 4 } }, { $project: { n: { $size: [1, 2] } } }]), 16020, 'Location16020');
    expect(error.errmsg).toMatch('Expression $size takes exactly 1 arguments. 2 were passed in.');
  });

  test('guarded by $isArray, a missing array counts as 0', async () => {
    const rows = await run('sized', [{ $project: { n: { $cond: [{ $isArray: '$list' }, { $size: '$list' }, 0] } } }, { $sort: { _id: 1 } }]);
    expect(rows.map((row) => row.n)).toEqual([0, 0, 0, 3]);
  });
});
