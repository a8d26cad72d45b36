import { Decimal128, Long, ObjectId, type Document } from 'bson';
import { CommandError } from '../../../../src/embedded-mongo/protocol/command-error';
import { compileFilter, runPipeline, type PipelineContext } from '../../../../src/embedded-mongo/query';
import { parseCollation } from '../../../../src/embedded-mongo/query/collation';

const oid = (n: number): ObjectId => new ObjectId(n.toString(16).padStart(24, '0'));

function contextWith(collections: Record<string, Record<string, unknown>[]>): PipelineContext & { reads: string[] } {
  const reads: string[] = [];
  return {
    reads,
    collection(name) {
      reads.push(name);
      return collections[name] ?? [];
    },
  };
}

const none = contextWith({});

describe('runPipeline', () => {
  it('runs $match, $project, $addFields/$set, $unset, $sort, $skip, $limit, $count', () => {
    const docs = [
      { _id: 1, n: Long.fromNumber(5), tag: 'a' },
      { _id: 2, n: 3, tag: 'b' },
      { _id: 3, n: new Decimal128('4.5'), tag: 'a' },
      { _id: 4, n: 1, tag: 'b' },
    ];
    const out = runPipeline(docs, [{ $match: { n: { $gte: 3 } } }, { $sort: { n: -1 } }, { $skip: 1 }, { $limit: 2 }, { $set: { double: { $multiply: ['$n', 2] } } }, { $unset: 'tag' }, { $project: { _id: 1, double: 1 } }], none);
    expect(out.map((d) => d._id)).toEqual([3, 2]);
    expect(String(out[0]?.double)).toBe('9.0');
    expect(out[1]?.double).toBe(6);
    expect(runPipeline(docs, [{ $match: { tag: 'a' } }, { $count: 'total' }], none)).toEqual([{ total: 2 }]);
  });

  it('never mutates the input documents', () => {
    const docs = [{ _id: 1, sub: { a: 1 } }];
    runPipeline(docs, [{ $set: { 'sub.b': 2 } }], none);
    expect(docs).toEqual([{ _id: 1, sub: { a: 1 } }]);
  });

  // MongoDB docs: "$group" and "$sum (aggregation)" — Long sums are exact; Decimal128 sums are decimal
  it('groups by BSON-equal keys and sums Long and Decimal128 exactly', () => {
    const docs = [
      { k: Long.fromNumber(1), v: Long.fromString('9007199254740993') },
      { k: 1, v: Long.fromNumber(1) },
      { k: oid(7), v: new Decimal128('0.1') },
      { k: new ObjectId(oid(7).toHexString()), v: new Decimal128('0.2') },
      { v: 5 },
      { k: null, v: 'not a number' },
    ];
    const out = runPipeline(docs, [{ $group: { _id: '$k', total: { $sum: '$v' }, count: { $sum: 1 }, avg: { $avg: '$v' } } }], none);
    expect(out).toHaveLength(3);
    const [ones, ids, nulls] = out;
    expect(ones?.count).toBe(2);
    expect(ones?.total).toBeInstanceOf(Long);
    expect(String(ones?.total)).toBe('9007199254740994');
    expect(ones?.avg).toBe(4503599627370497);
    expect(ids?.total).toBeInstanceOf(Decimal128);
    expect(String(ids?.total)).toBe('0.3');
    expect(String(ids?.avg)).toBe('0.15');
    expect(nulls).toEqual({ _id: null, total: 5, count: 2, avg: 5 });
  });

  it('computes $min, $max, $first, $last, $push, $addToSet and $count accumulators', () => {
    const docs = [
      { g: 1, v: 3 },
      { g: 1, v: Long.fromNumber(10) },
      { g: 1, v: null },
      { g: 1, v: 3.0 },
    ];
    const [out] = runPipeline(docs, [{ $group: { _id: '$g', min: { $min: '$v' }, max: { $max: '$v' }, first: { $first: '$v' }, last: { $last: '$v' }, all: { $push: '$v' }, set: { $addToSet: '$v' }, n: { $count: {} } } }], none);
    expect(out?.min).toBe(3);
    expect(out?.max).toEqual(Long.fromNumber(10));
    expect(out?.first).toBe(3);
    expect(out?.last).toBe(3);
    expect(out?.all).toEqual([3, Long.fromNumber(10), null, 3]);
    expect(out?.set).toEqual([3, Long.fromNumber(10), null]);
    expect(out?.n).toBe(4);
  });

  // MongoDB docs: "$topN (aggregation accumulator)", "$bottomN", "$firstN", "$lastN"
  it('computes $topN, $bottomN, $top, $bottom, $firstN and $lastN with BSON sort', () => {
    const docs = [
      { g: 'x', p: 'a', score: Long.fromString('9007199254740993') },
      { g: 'x', p: 'b', score: 9007199254740992 },
      { g: 'x', p: 'c', score: 1 },
      { g: 'y', p: 'd', score: 7 },
    ];
    const out = runPipeline(
      docs,
      [
        {
          $group: {
            _id: '$g',
            top2: { $topN: { n: 2, sortBy: { score: -1 }, output: '$p' } },
            bottom2: { $bottomN: { n: 2, sortBy: { score: -1 }, output: '$p' } },
            top: { $top: { sortBy: { score: 1 }, output: ['$p', '$score'] } },
            bottom: { $bottom: { sortBy: { score: 1 }, output: '$p' } },
            first2: { $firstN: { n: 2, input: '$p' } },
            last2: { $lastN: { n: 2, input: '$p' } },
          },
        },
        { $sort: { _id: 1 } },
      ],
      none,
    );
    expect(out[0]).toEqual({ _id: 'x', top2: ['a', 'b'], bottom2: ['b', 'c'], top: ['c', 1], bottom: 'a', first2: ['a', 'b'], last2: ['b', 'c'] });
    expect(out[1]).toEqual({ _id: 'y', top2: ['d'], bottom2: ['d'], top: ['d', 7], bottom: 'd', first2: ['d'], last2: ['d'] });
  });

  // MongoDB docs: "$lookup" — equality match; a missing localField matches null/missing foreignField; arrays match elements
  it('joins with $lookup localField/foreignField using BSON equality', () => {
    const authors = [
      { _id: oid(1), name: 'ann' },
      { _id: oid(2), name: 'bob' },
      { name: 'nobody' },
    ];
    const books = [
      { _id: 10, author: new ObjectId(oid(2).toHexString()) },
      { _id: 11, author: [oid(1), oid(2)] },
      { _id: 12 },
    ];
    const context = contextWith({ authors });
    const out = runPipeline(books, [{ $lookup: { from: 'authors', localField: 'author', foreignField: '_id', as: 'by' } }, { $project: { names: '$by.name' } }], context);
    expect(out).toEqual([
      { _id: 10, names: ['bob'] },
      { _id: 11, names: ['ann', 'bob'] },
      { _id: 12, names: ['nobody'] },
    ]);
    expect(context.reads).toEqual(['authors']);
    const numeric = runPipeline([{ x: 1 }], [{ $lookup: { from: 'f', localField: 'x', foreignField: 'y', as: 'j' } }], contextWith({ f: [{ y: Long.fromNumber(1) }, { y: '1' }] }));
    expect(numeric).toEqual([{ x: 1, j: [{ y: Long.fromNumber(1) }] }]);
  });

  it('joins a foreign document once under a collation, though two of its keys equal the local value', () => {
    const context = { ...contextWith({ tagged: [{ _id: 1, tags: ['a', 'A'] }] }), collation: parseCollation({ locale: 'en', strength: 2 }) };
    const out = runPipeline([{ _id: 9, tag: 'a' }], [{ $lookup: { from: 'tagged', localField: 'tag', foreignField: 'tags', as: 'joined' } }], context);
    expect(out).toEqual([{ _id: 9, tag: 'a', joined: [{ _id: 1, tags: ['a', 'A'] }] }]);
  });

  it('joins with a $lookup pipeline using let variables, and with the concise correlated form', () => {
    const orders = [{ _id: 1, item: 'a', qty: 5 }, { _id: 2, item: 'b', qty: 1 }];
    const stock = [{ sku: 'a', inStock: 10 }, { sku: 'a', inStock: 1 }, { sku: 'b', inStock: 50 }];
    const context = contextWith({ stock });
    const out = runPipeline(orders, [{ $lookup: { from: 'stock', let: { item: '$item', qty: '$qty' }, pipeline: [{ $match: { $expr: { $and: [{ $eq: ['$sku', '$$item'] }, { $gte: ['$inStock', '$$qty'] }] } } }, { $project: { _id: 0, inStock: 1 } }], as: 'avail' } }], context);
    expect(out).toEqual([
      { _id: 1, item: 'a', qty: 5, avail: [{ inStock: 10 }] },
      { _id: 2, item: 'b', qty: 1, avail: [{ inStock: 50 }] },
    ]);
    const concise = runPipeline(orders, [{ $lookup: { from: 'stock', localField: 'item', foreignField: 'sku', let: { qty: '$qty' }, pipeline: [{ $match: { $expr: { $lt: ['$inStock', '$$qty'] } } }], as: 'short' } }], context);
    expect(concise.map((o) => o.short)).toEqual([[{ sku: 'a', inStock: 1 }], []]);
  });

  it('asks its indexed lookup for the distinct local values once (as a join filter), and reads the whole collection only without one', () => {
    const orders = [{ _id: 1, item: 'a', qty: 5 }, { _id: 2, item: 'b', qty: 1 }, { _id: 3, item: 'a', qty: 20 }];
    const stock = [{ sku: 'a', inStock: 10 }, { sku: 'a', inStock: 1 }, { sku: 'b', inStock: 50 }, { sku: 'z', inStock: 9 }];
    const asked: Array<[string, Document]> = [];
    const indexed: PipelineContext & { reads: string[] } = {
      ...contextWith({ stock }),
      lookup(name, filter) {
        asked.push([name, filter]);
        return stock.filter(compileFilter(filter));
      },
    };
    const pipeline = [{ $lookup: { from: 'stock', let: { item: '$item', qty: '$qty' }, pipeline: [{ $match: { $expr: { $and: [{ $eq: ['$sku', '$$item'] }, { $gte: ['$inStock', '$$qty'] }] } } }, { $project: { _id: 0, inStock: 1 } }], as: 'avail' } }];
    const out = runPipeline(orders, pipeline, indexed);
    expect(out.map((order) => order.avail)).toEqual([[{ inStock: 10 }], [{ inStock: 50 }], []]);
    expect(asked).toEqual([['stock', { sku: { $in: ['a', 'b'] } }]]);
    expect(indexed.reads).toEqual([]);
    // The same answer from the whole collection, where no index serves the lookup.
    const scanned = contextWith({ stock });
    expect(runPipeline(orders, pipeline, { ...scanned, lookup: () => undefined }).map((order) => order.avail)).toEqual(out.map((order) => order.avail));
    expect(scanned.reads).toEqual(['stock']);
    // A pipeline not correlated by an equality reads the collection as mingo does.
    const uncorrelated = { ...contextWith({ stock }), lookup: indexed.lookup };
    runPipeline(orders, [{ $lookup: { from: 'stock', let: { qty: '$qty' }, pipeline: [{ $match: { $expr: { $gte: ['$inStock', '$$qty'] } } }], as: 'enough' } }], uncorrelated);
    expect(asked).toHaveLength(1);
  });

  it('joins 10k × 10k by hashing the foreign side once', () => {
    const foreign = Array.from({ length: 10000 }, (_, i) => ({ _id: oid(i), n: i }));
    const local = Array.from({ length: 10000 }, (_, i) => ({ ref: oid(9999 - i) }));
    const context = contextWith({ f: foreign });
    const out = runPipeline(local, [{ $lookup: { from: 'f', localField: 'ref', foreignField: '_id', as: 'j' } }, { $unwind: '$j' }, { $group: { _id: null, total: { $sum: '$j.n' } } }], context);
    expect(out).toEqual([{ _id: null, total: 49995000 }]);
    // One read of the foreign collection for all 10,000 parents (no clock: the benchmarks time it).
    expect(context.reads).toEqual(['f']);
  });

  it('runs a paged lookup pipeline once per set of join values, and gives each parent sharing it its own documents', () => {
    const publishers = [{ _id: 1, name: 'P1' }, { _id: 2, name: 'P2' }];
    const books = Array.from({ length: 6 }, (_, i) => ({ _id: 10 + i, publisherId: 1 + (i % 2), title: `t${i}` }));
    // Parents repeating the values 1 and [1, 2] (in either order): the nested lookup counts its reads of publishers.
    const parents = [{ _id: 'a', refs: 1 }, { _id: 'b', refs: [1, 2] }, { _id: 'c', refs: 1 }, { _id: 'd', refs: [2, 1, 2] }];
    const context = contextWith({ books, publishers });
    const pipeline = [
      {
        $lookup: {
          from: 'books',
          localField: 'refs',
          foreignField: 'publisherId',
          pipeline: [{ $sort: { _id: -1 } }, { $limit: 2 }, { $lookup: { from: 'publishers', localField: 'publisherId', foreignField: '_id', as: 'publisher' } }, { $project: { title: 1, publisher: '$publisher.name' } }],
          as: 'books',
        },
      },
      // Changes each parent's joined documents in place: a document shared between parents would carry another's tag.
      { $unwind: '$books' },
      { $set: { 'books.parent': '$_id' } },
      { $group: { _id: '$_id', refs: { $first: '$refs' }, books: { $push: '$books' } } },
      { $sort: { _id: 1 } },
    ];
    const out = runPipeline(parents, pipeline, context);
    const newestOf1 = [{ _id: 14, title: 't4', publisher: ['P1'] }, { _id: 12, title: 't2', publisher: ['P1'] }];
    const newestOfBoth = [{ _id: 15, title: 't5', publisher: ['P2'] }, { _id: 14, title: 't4', publisher: ['P1'] }];
    expect(out).toEqual([
      { _id: 'a', refs: 1, books: newestOf1.map((book) => ({ ...book, parent: 'a' })) },
      { _id: 'b', refs: [1, 2], books: newestOfBoth.map((book) => ({ ...book, parent: 'b' })) },
      { _id: 'c', refs: 1, books: newestOf1.map((book) => ({ ...book, parent: 'c' })) },
      { _id: 'd', refs: [2, 1, 2], books: newestOfBoth.map((book) => ({ ...book, parent: 'd' })) },
    ]);
    // The nested lookup runs once over the pages of the chunk's parents: publishers read once.
    expect(context.reads.filter((name) => name === 'publishers')).toEqual(['publishers']);
  });

  it("runs a lookup's one-for-one stages once per foreign document, the output frozen and shared by the parents holding it", () => {
    const stocks = [{ _id: 1, symbol: 'A', open: 10 }, { _id: 2, symbol: 'B', open: 20 }, { _id: 3, symbol: 'C', open: 30 }];
    // Values out of key order and repeated: each parent gets each document once, in the foreign order.
    const parents = [{ _id: 'p', held: [3, 1, 3] }, { _id: 'q', held: [1] }, { _id: 'r', held: [2, 1] }];
    const pipeline = [{ $lookup: { from: 'stocks', localField: 'held', foreignField: '_id', as: 'stocks', pipeline: [{ $project: { symbol: 1 } }] } }];
    const out = runPipeline(parents, pipeline, contextWith({ stocks }));
    expect(out.map((parent) => parent.stocks)).toEqual([
      [{ _id: 1, symbol: 'A' }, { _id: 3, symbol: 'C' }],
      [{ _id: 1, symbol: 'A' }],
      [{ _id: 1, symbol: 'A' }, { _id: 2, symbol: 'B' }],
    ]);
    const [p, q, r] = out.map((parent) => parent.stocks as Record<string, unknown>[]);
    expect(p![0]).toBe(q![0]);
    expect(r![0]).toBe(q![0]);
    expect(Object.isFrozen(q![0])).toBe(true);
    // Each parent's list is its own.
    expect(p).not.toBe(q);
    expect(Object.isFrozen(p)).toBe(false);
  });

  it('runs a lookup tail with $rand or a nested $sample once per parent, as MongoDB evaluates it per parent', () => {
    const parents = Array.from({ length: 8 }, (_, i) => ({ _id: i, ref: 1 }));
    const pipeline = [{ $lookup: { from: 'f', localField: 'ref', foreignField: '_id', as: 'j', pipeline: [{ $addFields: { r: { $rand: {} } } }] } }];
    const out = runPipeline(parents, pipeline, contextWith({ f: [{ _id: 1 }] }));
    const draws = new Set(out.map((parent) => (parent.j as Array<{ r: number }>)[0]!.r));
    expect(draws.size).toBe(8);
    // A nested lookup that samples draws per parent too.
    const sampled = [{ $lookup: { from: 'f', localField: 'ref', foreignField: '_id', as: 'j', pipeline: [{ $lookup: { from: 'many', pipeline: [{ $sample: { size: 1 } }], as: 'one' } }] } }];
    const many = Array.from({ length: 1000 }, (_, i) => ({ _id: i }));
    const picks = runPipeline(parents, sampled, contextWith({ f: [{ _id: 1 }], many })).map((parent) => (parent.j as Array<{ one: Array<{ _id: number }> }>)[0]!.one[0]!._id);
    expect(new Set(picks).size).toBeGreaterThan(1);
  });

  it("gives each parent its own copy of an unfrozen foreign document's parts (a view's), and leaves that document as it was", () => {
    for (const tail of [[{ $set: { r: { $rand: {} } } }], [{ $project: { sub: 1 } }]]) {
      const f = [{ _id: 1, sub: { a: 1 } }];
      const parents = [{ _id: 'p', ref: 1 }, { _id: 'q', ref: 1 }];
      const pipeline = [
        { $lookup: { from: 'f', localField: 'ref', foreignField: '_id', as: 'j', pipeline: tail } },
        { $unwind: '$j' },
        { $set: { 'j.sub.who': '$_id' } },
        { $sort: { _id: 1 } },
      ];
      const out = runPipeline(parents, pipeline, contextWith({ f }));
      expect(out.map((parent) => (parent.j as Record<string, unknown>).sub)).toEqual([{ a: 1, who: 'p' }, { a: 1, who: 'q' }]);
      expect(f).toEqual([{ _id: 1, sub: { a: 1 } }]);
      expect(Object.isFrozen(f[0]!.sub)).toBe(false);
    }
  });

  it('gives each $group field its own copy of a value two accumulators take from one member', () => {
    const pipeline = [{ $addFields: { sub: { a: 1 } } }, { $group: { _id: '$sub', all: { $push: '$sub' }, first: { $first: '$sub' } } }, { $set: { 'first.x': 1 } }];
    expect(runPipeline([{ _id: 1 }], pipeline, none)).toEqual([{ _id: { a: 1 }, all: [{ a: 1 }], first: { a: 1, x: 1 } }]);
    // Frozen (stored) members are shared, not copied.
    const stored = [Object.freeze({ _id: 1, g: 'x' }), Object.freeze({ _id: 2, g: 'x' })];
    const [group] = runPipeline(stored, [{ $group: { _id: '$g', all: { $push: '$$ROOT' } } }], none);
    expect((group!.all as unknown[])[1]).toBe(stored[1]);
  });

  it('runs $unwind, $facet, $replaceRoot, $replaceWith and $sortByCount', () => {
    const docs = [
      { _id: 1, tags: ['a', 'b'], inner: { x: 1 } },
      { _id: 2, tags: ['a'], inner: { x: 2 } },
      { _id: 3, tags: [], inner: { x: 3 } },
    ];
    expect(runPipeline(docs, [{ $unwind: '$tags' }, { $project: { tags: 1 } }], none)).toEqual([
      { _id: 1, tags: 'a' },
      { _id: 1, tags: 'b' },
      { _id: 2, tags: 'a' },
    ]);
    expect(runPipeline(docs, [{ $unwind: { path: '$tags', preserveNullAndEmptyArrays: true } }, { $count: 'n' }], none)).toEqual([{ n: 4 }]);
    expect(runPipeline(docs, [{ $unwind: '$tags' }, { $sortByCount: '$tags' }], none)).toEqual([
      { _id: 'a', count: 2 },
      { _id: 'b', count: 1 },
    ]);
    expect(runPipeline(docs, [{ $replaceRoot: { newRoot: '$inner' } }], none)).toEqual([{ x: 1 }, { x: 2 }, { x: 3 }]);
    expect(runPipeline(docs, [{ $replaceWith: '$inner' }, { $match: { x: { $gt: 1 } } }], none)).toEqual([{ x: 2 }, { x: 3 }]);
    expect(runPipeline(docs, [{ $facet: { count: [{ $count: 'n' }], top: [{ $sort: { _id: -1 } }, { $limit: 1 }, { $project: { _id: 1 } }] } }], none)).toEqual([{ count: [{ n: 3 }], top: [{ _id: 3 }] }]);
  });

  // MongoDB docs: "$setWindowFields"
  it('runs $setWindowFields', () => {
    const docs = [
      { s: 'x', d: 1, q: 5 },
      { s: 'x', d: 2, q: 7 },
      { s: 'y', d: 1, q: 1 },
    ];
    const out = runPipeline(docs, [{ $setWindowFields: { partitionBy: '$s', sortBy: { d: 1 }, output: { running: { $sum: '$q', window: { documents: ['unbounded', 'current'] } } } } }, { $project: { _id: 0, s: 1, running: 1 } }], none);
    expect(out).toEqual([
      { s: 'x', running: 5 },
      { s: 'x', running: 12 },
      { s: 'y', running: 1 },
    ]);
  });

  it('rejects unknown stages with code 40324 and malformed stages with 40323', () => {
    const codeOf = (pipeline: Record<string, unknown>[]): number | undefined => {
      try {
        runPipeline([], pipeline, none);
      } catch (error) {
        return (error as CommandError).code;
      }
      return undefined;
    };
    expect(codeOf([{ $nope: {} }])).toBe(40324);
    expect(codeOf([{ $match: {}, $limit: 1 }])).toBe(40323);
  });
});

describe('runPipeline BSON types in expressions', () => {
  // MongoDB docs: "$type (aggregation)" — returns the BSON type alias, "missing" for a missing field
  it('reports $type with MongoDB aliases', () => {
    const [out] = runPipeline([{ o: oid(1), d: new Decimal128('1'), l: Long.fromNumber(1), i: 1, f: 1.5, s: 'x' }], [{ $project: { _id: 0, o: { $type: '$o' }, d: { $type: '$d' }, l: { $type: '$l' }, i: { $type: '$i' }, f: { $type: '$f' }, s: { $type: '$s' }, m: { $type: '$nope' } } }], none);
    expect(out).toEqual({ o: 'objectId', d: 'decimal', l: 'long', i: 'int', f: 'double', s: 'string', m: 'missing' });
  });

  // MongoDB docs: "$count (aggregation)" — no input documents, no output document
  it('emits nothing from $count when no document reaches it', () => {
    expect(runPipeline([{ a: 1 }], [{ $match: { a: 2 } }, { $count: 'n' }], none)).toEqual([]);
  });
});

/** Stored documents are deep-frozen; pipelines get them without a copy. */
function deepFrozen<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (Array.isArray(value) || Object.getPrototypeOf(value) === Object.prototype) {
    for (const inner of Object.values(value)) deepFrozen(inner);
    Object.freeze(value);
  }
  return value;
}

describe('runPipeline over stored (deep-frozen) documents', () => {
  const stored = (): Record<string, unknown>[] =>
    deepFrozen([
      { _id: 1, host: { id: oid(1), name: 'a' }, tags: ['x', 'y'], time: new Date(30) },
      { _id: 2, host: { id: oid(2), name: 'b' }, tags: [], time: new Date(20) },
      { _id: 3, host: { id: oid(1), name: 'a' }, tags: ['z'], time: new Date(10) },
    ]);

  it('passes them through read-only stages without copying', () => {
    const docs = stored();
    const out = runPipeline(docs, [{ $sort: { time: 1 } }, { $limit: 2 }, { $unwind: '$tags' }, { $replaceRoot: { newRoot: '$host' } }], none);
    expect(out).toEqual([{ id: oid(1), name: 'a' }]);
    expect(out[0]).toBe(docs[2]!.host);
    const projected = runPipeline(docs, [{ $project: { 'host.id': 1 } }], none);
    expect(projected).toEqual([
      { _id: 1, host: { id: oid(1) } },
      { _id: 2, host: { id: oid(2) } },
      { _id: 3, host: { id: oid(1) } },
    ]);
  });

  it('gives stages that write into their input their own copies, and leaves the stored documents as they were', () => {
    const docs = stored();
    const out = runPipeline(
      docs,
      [
        { $project: { host: 1, tags: 1 } },
        { $set: { 'host.seen': true } },
        { $unwind: { path: '$tags', includeArrayIndex: 'i', preserveNullAndEmptyArrays: true } },
        { $unset: 'host.name' },
      ],
      none,
    );
    expect(out).toEqual([
      { _id: 1, host: { id: oid(1), seen: true }, tags: 'x', i: 0 },
      { _id: 1, host: { id: oid(1), seen: true }, tags: 'y', i: 1 },
      { _id: 2, host: { id: oid(2), seen: true }, i: null },
      { _id: 3, host: { id: oid(1), seen: true }, tags: 'z', i: 0 },
    ]);
    expect(docs).toEqual(stored());
  });

  it('groups by a plain field path directly and by a path through arrays as mingo evaluates it', () => {
    const docs = deepFrozen([
      { _id: 1, host: { id: oid(1) }, items: [{ k: 'a' }, { k: 'b' }] },
      { _id: 2, host: { id: new ObjectId(oid(1).toHexString()) }, items: [{ k: 'a' }, { k: 'b' }] },
      { _id: 3, items: [{ k: 'c' }] },
    ]);
    expect(runPipeline(docs, [{ $group: { _id: '$host.id', n: { $sum: 1 } } }], none)).toEqual([
      { _id: oid(1), n: 2 },
      { _id: null, n: 1 },
    ]);
    expect(runPipeline(docs, [{ $group: { _id: '$items.k', n: { $sum: 1 } } }], none)).toEqual([
      { _id: ['a', 'b'], n: 2 },
      { _id: ['c'], n: 1 },
    ]);
  });

  // the gateway's reverse join: the $topN of each group reads members already sorted by its sortBy
  it('takes $topN/$bottomN of input sorted on the same keys without sorting again, with the same results', () => {
    const logs = deepFrozen(
      Array.from({ length: 30 }, (_, i) => ({ _id: i, host: { id: oid(i % 3) }, time: new Date(1000 + ((i * 7) % 10)), message: `m${i}` })),
    );
    const sortBy = { time: -1, _id: -1 };
    const grouped = (n: number): Record<string, unknown>[] => [
      { $project: { _id: 1, 'host.id': 1, time: 1 } },
      { $group: { _id: '$host.id', top: { $topN: { n, sortBy, output: '$_id' } }, last: { $bottom: { sortBy, output: '$_id' } } } },
    ];
    const expected = runPipeline(logs, grouped(4), none);
    // group order follows the input order (MongoDB leaves it unspecified), group contents must not
    const afterSort = runPipeline(logs, [{ $sort: sortBy }, ...grouped(4)], none);
    expect(afterSort).toEqual(expect.arrayContaining(expected));
    expect(afterSort).toHaveLength(3);
    const presorted = runPipeline(
      [...logs].sort((a, b) => b.time.getTime() - a.time.getTime() || b._id - a._id),
      grouped(4),
      { ...none, inputOrder: sortBy },
    );
    expect(presorted).toEqual(expect.arrayContaining(expected));
    expect(presorted).toHaveLength(3);
    expect(expected.find((g) => String(g._id) === String(oid(0)))).toEqual({ _id: oid(0), top: [27, 24, 21, 18], last: 0 });
  });
});

describe('$project with computed fields and $unset, without copying their input', () => {
  const stored = (): Record<string, unknown>[] =>
    deepFrozen([
      { _id: 1, name: 'a', owner: [oid(7), oid(8)], host: { id: oid(1), name: 'h' }, tags: ['x'] },
      { _id: 2, name: 'b', owner: oid(9), host: { id: oid(2), name: 'i' }, tags: [] },
    ]);

  // MongoDB docs: "$project (aggregation)": a computed field that evaluates to missing is left out
  it('computes top-level fields next to inclusions, after them in the order of the spec, and leaves out what is missing', () => {
    const docs = stored();
    const out = runPipeline(
      docs,
      [{ $project: { later: 'x', host: 1, firstOwner: { $cond: [{ $isArray: '$owner' }, { $first: '$owner' }, '$owner'] }, none: '$nope', removed: '$$REMOVE', nothing: null, name: 1 } }],
      none,
    );
    expect(out).toEqual([
      { _id: 1, name: 'a', host: { id: oid(1), name: 'h' }, later: 'x', firstOwner: oid(7), nothing: null },
      { _id: 2, name: 'b', host: { id: oid(2), name: 'i' }, later: 'x', firstOwner: oid(9), nothing: null },
    ]);
    expect(out.map((doc) => Object.keys(doc))).toEqual([
      ['_id', 'name', 'host', 'later', 'firstOwner', 'nothing'],
      ['_id', 'name', 'host', 'later', 'firstOwner', 'nothing'],
    ]);
    expect(out[0]!.host).toBe(docs[0]!.host);
    expect(docs).toEqual(stored());
  });

  // document_source_project.cpp (its $unset alias) and FieldPath: MongoDB 7.0's codes
  it('$unset refuses what MongoDB refuses, with its codes', () => {
    const codeOf = (spec: unknown): unknown => {
      try {
        runPipeline([{ _id: 1, a: { b: 1 } }], [{ $unset: spec }], none);
        return 'no error';
      } catch (error) {
        return (error as CommandError).code;
      }
    };
    const refusals: Array<[unknown, number]> = [
      [{}, 31002],
      [[], 31119],
      [['a', 1], 31120],
      ['', 40352],
      ['a.', 40353],
      ['a..b', 15998],
      ['$a', 16410],
      ['a.$b', 16410],
      [['a', 'a.b'], 31249],
      [['a.b', 'a'], 31250],
      [['a', 'a'], 31250],
      // one field at a time, as MongoDB parses them: an earlier collision wins over a later bad path
      [['a', 'a', '$b'], 31250],
      [['a', 'a.b', '$b'], 31249],
    ];
    expect(refusals.map(([spec]) => [spec, codeOf(spec)])).toEqual(refusals);
    expect(codeOf(['a.b', 'c'])).toBe('no error');
  });

  it('gives each document $unwind makes of one an earlier stage built its own fields, which a later stage may change apart', () => {
    const out = runPipeline([{ _id: 1, arr: [1, 2] }], [{ $set: { sub: { q: 1 } } }, { $unwind: '$arr' }, { $set: { 'sub.z': '$arr' } }], none);
    expect(out).toEqual([
      { _id: 1, arr: 1, sub: { q: 1, z: 1 } },
      { _id: 1, arr: 2, sub: { q: 1, z: 2 } },
    ]);
  });

  // The gateway's reverse join unwinds the children it grouped ($group → $unwind): copying the array for each would be quadratic.
  it('copies an unwound document\'s other fields for each element it makes, never the array it unwinds', () => {
    let reads = 0;
    const element = (n: number): object =>
      Object.defineProperty({}, 'n', {
        enumerable: true,
        get: () => {
          reads += 1;
          return n;
        },
      });
    const children = deepFrozen([{ _id: 1, children: Array.from({ length: 50 }, (_, n) => element(n)) }]);
    reads = 0; // freezing read them
    const out = runPipeline(children, [{ $project: { children: 1, sub: { $literal: { q: 1 } } } }, { $unwind: '$children' }], none);
    expect(reads).toBe(0);
    expect(out).toHaveLength(50);
    expect(new Set(out.map((doc) => doc.sub)).size).toBe(50);
    expect(out.map((doc) => (doc.children as { n: number }).n)).toEqual(Array.from({ length: 50 }, (_, n) => n));
  });

  it('gives two fields computed from the same value each their own copy, which a later stage may change apart', () => {
    const out = runPipeline([{ _id: 1, sub: { a: 1 } }], [{ $project: { one: '$sub', two: '$sub' } }, { $set: { 'one.b': 2 } }], none);
    expect(out).toEqual([{ _id: 1, one: { a: 1, b: 2 }, two: { a: 1 } }]);
  });

  it('evaluates computed fields in the variables of the pipeline they run in', () => {
    const context = contextWith({ tasks: [{ _id: 10, owner: 1 }, { _id: 11, owner: 1 }] });
    const out = runPipeline(
      [{ _id: 1, name: 'p' }],
      [{ $lookup: { from: 'tasks', let: { who: '$name' }, pipeline: [{ $project: { _id: 1, who: '$$who', root: '$$ROOT._id' } }], as: 'tasks' } }],
      context,
    );
    expect(out).toEqual([{ _id: 1, name: 'p', tasks: [{ _id: 10, who: 'p', root: 10 }, { _id: 11, who: 'p', root: 11 }] }]);
  });

  // MongoDB docs: "$unset (aggregation)": an alias for an exclusion $project of its fields
  it('$unset drops its fields, _id and dotted paths through arrays included, and leaves the stored documents as they were', () => {
    const docs = stored();
    expect(runPipeline(docs, [{ $unset: ['_id', 'host.name', 'owner'] }], none)).toEqual([
      { name: 'a', host: { id: oid(1) }, tags: ['x'] },
      { name: 'b', host: { id: oid(2) }, tags: [] },
    ]);
    const listed = deepFrozen([{ _id: 1, items: [{ k: 1, v: 2 }, { k: 3 }, 'scalar'] }]);
    expect(runPipeline(listed, [{ $unset: 'items.v' }], none)).toEqual([{ _id: 1, items: [{ k: 1 }, { k: 3 }, 'scalar'] }]);
    expect(docs).toEqual(stored());
  });
});

describe('MongoDB order where mingo has its own', () => {
  const none = contextWith({});
  it('$setWindowFields ranks and partitions by BSON value, and leaves no hidden fields behind', () => {
    const docs = [
      { _id: 1, p: Long.fromNumber(1), v: Decimal128.fromString('2.0') },
      { _id: 2, p: 1, v: 2 },
      { _id: 3, p: Decimal128.fromString('1'), v: Long.fromNumber(1) },
      { _id: 4, p: 2, v: 5 },
    ];
    const out = runPipeline(docs, [{ $setWindowFields: { partitionBy: '$p', sortBy: { v: 1 }, output: { r: { $rank: {} }, n: { $count: {} } } } }], none);
    expect(out.map((doc) => [doc._id, doc.r, doc.n])).toEqual([
      [3, 1, 3],
      [1, 2, 3],
      [2, 2, 3],
      [4, 1, 1],
    ]);
    expect(Object.keys(out[0]!)).toEqual(['_id', 'p', 'v', 'r', 'n']);
  });

  it('$project with computed fields: _id first, included fields in input order, then computed ones', () => {
    const out = runPipeline([{ _id: 1, b: 2, a: 1 }], [{ $project: { z: '$a', a: 1, b: 1 } }], none);
    expect(Object.keys(out[0]!)).toEqual(['_id', 'b', 'a', 'z']);
  });

  // MongoDB docs: "$first (array operator)", "$last (array operator)"
  it('$first and $last of an array: null for null or missing, missing for an empty one, 28689 for anything else, one argument in a list', () => {
    const docs = [{ _id: 1, a: [1, 2, 3] }, { _id: 2, a: [] }, { _id: 3, a: null }, { _id: 4 }];
    expect(runPipeline(docs, [{ $addFields: { first: { $first: ['$a'] }, last: { $last: '$a' } } }], none)).toEqual([
      { _id: 1, a: [1, 2, 3], first: 1, last: 3 },
      { _id: 2, a: [] },
      { _id: 3, a: null, first: null, last: null },
      { _id: 4, first: null, last: null },
    ]);
    expect(() => runPipeline([{ a: 'text' }], [{ $addFields: { first: { $first: '$a' } } }], none)).toThrow(
      expect.objectContaining({ code: 28689, message: "$first's argument must be an array, but is string" }),
    );
  });

  // MongoDB docs: "$first (aggregation accumulator)": the name of the array expression, read over a group's documents
  it('$first and $last in $group and $bucket are the accumulators: the first and last document\'s value, null where it has none', () => {
    const docs = [{ _id: 1, g: 1, n: 1 }, { _id: 2, g: 1, v: 2, n: 5, a: [{ b: 1 }, { b: 2 }] }, { _id: 3, g: 1, v: 3 }, { _id: 4, g: 1 }];
    const accumulators = { first: { $first: '$v' }, last: { $last: '$v' }, size: { $first: { $cond: [{ $gt: ['$n', 1] }, 'big', 'small'] } }, bs: { $last: '$a.b' } };
    expect(runPipeline(docs, [{ $group: { _id: '$g', ...accumulators } }], none)).toEqual([{ _id: 1, first: null, last: null, size: 'small', bs: null }]);
    expect(runPipeline(docs.slice(1, 2), [{ $group: { _id: '$g', bs: { $first: '$a.b' } } }], none)).toEqual([{ _id: 1, bs: [1, 2] }]);
    expect(runPipeline(docs, [{ $bucket: { groupBy: '$g', boundaries: [0, 100], output: { first: { $first: '$v' } } } }], none)).toEqual([{ _id: 0, first: null }]);
  });

  // MongoDB docs: "Variables in Aggregation Expressions": NOW is the same throughout the pipeline
  it('$$NOW in a computed $project field is one time for every document', () => {
    let clock = 1_000;
    const now = jest.spyOn(Date, 'now').mockImplementation(() => (clock += 1));
    try {
      const out = runPipeline([{ _id: 1 }, { _id: 2 }, { _id: 3 }], [{ $project: { at: '$$NOW' } }], none);
      expect(new Set(out.map((doc) => (doc.at as Date).getTime())).size).toBe(1);
    } finally {
      now.mockRestore();
    }
  });

  it('$sortArray sorts numbers by value across types', () => {
    const out = runPipeline([{ a: [Long.fromString('9007199254740993'), 9007199254740992, Decimal128.fromString('-2')] }], [{ $project: { _id: 0, s: { $sortArray: { input: '$a', sortBy: 1 } } } }], none);
    expect((out[0]!.s as unknown[]).map(String)).toEqual(['-2', '9007199254740992', '9007199254740993']);
  });
});


describe('$unionWith', () => {
  const input = [{ _id: 1, k: 'a' }];
  const other = [{ _id: 2, k: 'b' }, { _id: 3, k: 'c' }, { _id: 4, k: 'b' }];

  it('appends the branch over collection(coll) after the input, without a unionWith hook', () => {
    const context = contextWith({ other });
    const pipeline = [{ $unionWith: { coll: 'other', pipeline: [{ $match: { k: 'b' } }, { $sort: { _id: -1 } }] } }, { $project: { _id: 1 } }];
    expect(runPipeline(input, pipeline, context)).toEqual([{ _id: 1 }, { _id: 4 }, { _id: 2 }]);
    expect(context.reads).toEqual(['other']);
  });

  it('hands each branch, nested ones included, to the context\'s unionWith hook, in order, after the input', () => {
    const calls: Array<[string, unknown[]]> = [];
    const context: PipelineContext = {
      collection: () => [],
      unionWith(name, branch) {
        calls.push([name, branch]);
        return runPipeline(name === 'other' ? other : [], branch, context);
      },
    };
    const nested = { $unionWith: { coll: 'other', pipeline: [{ $match: { _id: 3 } }] } };
    const pipeline = [{ $unionWith: 'missing' }, { $unionWith: { coll: 'other', pipeline: [{ $match: { _id: 2 } }, nested] } }];
    expect(runPipeline(input, pipeline, context)).toEqual([input[0], other[0], other[1]]);
    expect(calls).toEqual([
      ['missing', []],
      ['other', [{ $match: { _id: 2 } }, nested]],
      ['other', [{ $match: { _id: 3 } }]],
    ]);
  });
});

describe('a pipeline of leading $match stages only', () => {
  it('filters without building an aggregation, and answers a failing expression with the command error the full path gives', () => {
    const docs = [{ _id: 1, v: 1 }, { _id: 2, v: 2 }];
    expect(runPipeline(docs, [{ $match: { v: { $gt: 1 } } }], none)).toEqual([{ _id: 2, v: 2 }]);
    const codeOf = (pipeline: Record<string, unknown>[]) => {
      try {
        runPipeline(docs, pipeline, none);
      } catch (error) {
        return [(error as CommandError).constructor.name, (error as CommandError).code];
      }
      return undefined;
    };
    const failing = { $match: { $expr: { $in: [1, 'x'] } } };
    expect(codeOf([failing])).toEqual(codeOf([failing, { $project: { v: 1 } }]));
    expect(codeOf([failing])![0]).toBe('CommandError');
  });
});
