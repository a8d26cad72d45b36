/**
 * Cursors: default first batch of 101, getMore round trips counted with command monitoring,
 * batchSize, limit, singleBatch, killCursors and CursorNotFound (43). Runs unchanged against MONGODB_URI.
 */
import { type Document } from 'mongodb';
import { asCursorId, expectServerError, recordCommands, useCompatDatabase, type CommandRecorder } from './support/compat-helpers';

const ctx = useCompatDatabase('compat_cursors');
const TOTAL = 250;
let recorder: CommandRecorder;

beforeAll(async () => {
  await ctx.db.collection('many').insertMany(Array.from({ length: TOTAL }, (_, i) => ({ _id: i, v: i % 7 })) as Document[]);
  recorder = await recordCommands(ctx.mongo.uri, ctx.db.databaseName);
});
afterAll(async () => {
  await recorder?.close();
});
beforeEach(() => recorder.reset());

const many = () => recorder.client.db(ctx.db.databaseName).collection('many');

describe('find cursors', () => {
  test('without batchSize the first batch holds 101 documents and one getMore fetches the rest', async () => {
    // MongoDB docs, "Cursors" > "Cursor Batches": find returns 101 documents in the first batch;
    // a getMore without batchSize returns up to 16 MiB.
    const rows = await many().find({}).sort({ _id: 1 }).toArray();
    expect(rows).toHaveLength(TOTAL);
    expect(rows.map((row) => row._id)).toEqual(Array.from({ length: TOTAL }, (_, i) => i));
    expect(recorder.started('find')).toHaveLength(1);
    expect(recorder.started('getMore')).toHaveLength(1);
  });

  test('batchSize 60 over 250 documents costs one find and exactly four getMores', async () => {
    const rows = await many().find({}).batchSize(60).toArray();
    expect(rows).toHaveLength(TOTAL);
    expect(new Set(rows.map((row) => row._id)).size).toBe(TOTAL);
    expect(recorder.started('find')).toHaveLength(1);
    const getMores = recorder.started('getMore');
    expect(getMores).toHaveLength(4);
    for (const event of getMores) expect(event.command.batchSize).toBe(60);
  });

  test('the first batch and each getMore return batchSize documents, and the last one closes the cursor', async () => {
    const first = await ctx.db.command({ find: 'many', filter: {}, sort: { _id: 1 }, batchSize: 100 });
    expect(first.cursor.firstBatch).toHaveLength(100);
    expect(first.cursor.ns).toBe(`${ctx.db.databaseName}.many`);
    const id = asCursorId(first.cursor.id);
    expect(id.isZero()).toBe(false);
    const second = await ctx.db.command({ getMore: id, collection: 'many', batchSize: 100 });
    expect(second.cursor.nextBatch.map((d: Document) => d._id)).toEqual(Array.from({ length: 100 }, (_, i) => 100 + i));
    expect(asCursorId(second.cursor.id).equals(id)).toBe(true);
    const third = await ctx.db.command({ getMore: id, collection: 'many', batchSize: 100 });
    expect(third.cursor.nextBatch).toHaveLength(50);
    expect(asCursorId(third.cursor.id).isZero()).toBe(true);
  });

  test('a limit smaller than the first batch needs no getMore and closes the cursor at once', async () => {
    const rows = await many().find({}).sort({ _id: -1 }).limit(30).toArray();
    expect(rows.map((row) => row._id)).toEqual(Array.from({ length: 30 }, (_, i) => TOTAL - 1 - i));
    expect(recorder.started('getMore')).toHaveLength(0);
    expect(recorder.started('killCursors')).toHaveLength(0);
  });

  test('limit 120 returns exactly 120 documents over one getMore', async () => {
    const rows = await many().find({}).sort({ _id: 1 }).limit(120).toArray();
    expect(rows).toHaveLength(120);
    expect(rows[119]!._id).toBe(119);
    expect(recorder.started('getMore')).toHaveLength(1);
  });

  test('skip and limit with a filter across batches', async () => {
    const rows = await many().find({ v: 0 }).sort({ _id: 1 }).skip(5).limit(20).batchSize(7).toArray();
    expect(rows.map((row) => row._id)).toEqual(Array.from({ length: 20 }, (_, i) => (i + 5) * 7));
  });

  test('singleBatch returns one batch and no open cursor', async () => {
    // MongoDB docs, "find" command: singleBatch "determines whether to close the cursor after the first batch".
    const reply = await ctx.db.command({ find: 'many', filter: {}, sort: { _id: 1 }, batchSize: 5, singleBatch: true });
    expect(reply.cursor.firstBatch.map((d: Document) => d._id)).toEqual([0, 1, 2, 3, 4]);
    expect(asCursorId(reply.cursor.id).isZero()).toBe(true);
  });

  test('batchSize 0 opens a cursor with an empty first batch', async () => {
    // MongoDB docs, "find" command: batchSize 0 establishes a cursor without returning documents.
    const reply = await ctx.db.command({ find: 'many', filter: { _id: { $lt: 3 } }, sort: { _id: 1 }, batchSize: 0 });
    expect(reply.cursor.firstBatch).toEqual([]);
    const id = asCursorId(reply.cursor.id);
    expect(id.isZero()).toBe(false);
    const next = await ctx.db.command({ getMore: id, collection: 'many' });
    expect(next.cursor.nextBatch.map((d: Document) => d._id)).toEqual([0, 1, 2]);
  });

  test('a result that fits in the first batch comes back with cursor id 0', async () => {
    const reply = await ctx.db.command({ find: 'many', filter: { _id: { $lt: 10 } } });
    expect(reply.cursor.firstBatch).toHaveLength(10);
    expect(asCursorId(reply.cursor.id).isZero()).toBe(true);
  });

  test('iterating with next() crosses batch boundaries in order', async () => {
    const cursor = many().find({ _id: { $lt: 25 } } as Document).sort({ _id: 1 }).batchSize(10);
    const seen: unknown[] = [];
    for await (const doc of cursor) seen.push(doc._id);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(recorder.started('getMore')).toHaveLength(2);
  });
});

describe('aggregate cursors', () => {
  test('an aggregation with more than 101 results is fetched with getMore', async () => {
    const rows = await many().aggregate([{ $match: { _id: { $gte: 10 } } }, { $sort: { _id: 1 } }]).toArray();
    expect(rows).toHaveLength(TOTAL - 10);
    expect(rows[0]!._id).toBe(10);
    expect(rows[TOTAL - 11]!._id).toBe(TOTAL - 1);
    expect(recorder.started('aggregate')).toHaveLength(1);
    expect(recorder.started('getMore')).toHaveLength(1);
  });

  test('aggregate with batchSize 50 costs exactly four getMores for 240 results', async () => {
    const rows = await many().aggregate([{ $match: { _id: { $gte: 10 } } }], { batchSize: 50 }).toArray();
    expect(rows).toHaveLength(240);
    expect(recorder.started('aggregate')[0]!.command.cursor).toEqual({ batchSize: 50 });
    expect(recorder.started('getMore')).toHaveLength(4);
  });
});

describe('killCursors and CursorNotFound', () => {
  test('closing a partly read cursor sends killCursors; a getMore on it then fails with 43', async () => {
    const cursor = many().find({}).batchSize(10);
    await cursor.next();
    const id = cursor.id;
    expect(id).toBeDefined();
    expect(asCursorId(id).isZero()).toBe(false);
    await cursor.close();
    expect(recorder.started('killCursors')).toHaveLength(1);
    await expectServerError(ctx.db.command({ getMore: asCursorId(id), collection: 'many' }), 43, 'CursorNotFound');
  });

  test('the killCursors command reports killed and not-found ids', async () => {
    const reply = await ctx.db.command({ find: 'many', filter: {}, batchSize: 2 });
    const id = asCursorId(reply.cursor.id);
    const killed = await ctx.db.command({ killCursors: 'many', cursors: [id] });
    expect(killed.ok).toBe(1);
    expect(killed.cursorsKilled.map((c: unknown) => asCursorId(c).toString())).toEqual([id.toString()]);
    expect(killed.cursorsNotFound).toEqual([]);
    const again = await ctx.db.command({ killCursors: 'many', cursors: [id] });
    expect(again.cursorsKilled).toEqual([]);
    expect(again.cursorsNotFound.map((c: unknown) => asCursorId(c).toString())).toEqual([id.toString()]);
  });

  test('a getMore on an exhausted cursor fails with 43', async () => {
    const reply = await ctx.db.command({ find: 'many', filter: { _id: { $lt: 4 } }, batchSize: 2 });
    const id = asCursorId(reply.cursor.id);
    const rest = await ctx.db.command({ getMore: id, collection: 'many', batchSize: 10 });
    expect(rest.cursor.nextBatch).toHaveLength(2);
    expect(asCursorId(rest.cursor.id).isZero()).toBe(true);
    await expectServerError(ctx.db.command({ getMore: id, collection: 'many' }), 43, 'CursorNotFound');
  });

  test('a getMore on an id that never existed fails with 43', async () => {
    await expectServerError(
      ctx.db.command({ getMore: asCursorId(123456789), collection: 'many' }),
      43,
      'CursorNotFound',
    );
  });
});
