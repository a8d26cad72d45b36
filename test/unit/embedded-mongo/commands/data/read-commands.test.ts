import { ObjectId, type Document } from 'bson';
import { dataCommands } from '../../../../../src/embedded-mongo/commands/data';
import { sortDocuments } from '../../../../../src/embedded-mongo/query';
import { Store } from '../../../../../src/embedded-mongo/storage/store';

const context = { db: 'db', connectionId: 1 };
const host = (n: number): ObjectId => new ObjectId(n.toString(16).padStart(24, '0'));

/** 20 hosts × 50 log messages; times repeat so the sort needs its _id tie-breaker. */
function setUp(): { store: Store; run: (command: Document) => Document; logs: Document[] } {
  const store = new Store();
  const commands = dataCommands(store);
  const run = (command: Document): Document => commands[Object.keys(command)[0]!]!(command, context) as Document;
  const logs = Array.from({ length: 1000 }, (_, i) => ({ _id: i, time: new Date(1_000 + (i % 37)), message: `m${i}`, host: { id: host(i % 20), name: `h${i % 20}` } }));
  run({ insert: 'logs', documents: logs });
  run({ createIndexes: 'logs', indexes: [{ key: { 'host.id': 1, time: -1 }, name: 'host.id_1_time_-1' }] });
  return { store, run, logs };
}

function aggregate(run: (command: Document) => Document, pipeline: Document[]): Document[] {
  return (run({ aggregate: 'logs', pipeline, cursor: { batchSize: 10_000 } }).cursor as { firstBatch: Document[] }).firstBatch;
}

describe('aggregate: the leading $match, $sort, $skip and $limit run in storage', () => {
  it('looks the leading $match up in the index instead of scanning (docsExamined)', () => {
    const { store, run } = setUp();
    const collection = store.collection('db', 'logs')!;
    const before = collection.docsExamined;
    const docs = aggregate(run, [{ $match: { 'host.id': { $in: [host(1), host(2)] } } }, { $count: 'n' }]);
    expect(docs).toEqual([{ n: 100 }]);
    expect(collection.docsExamined - before).toBe(100);
  });

  // the gateway's reverse join (src/gateway/loaders/reverse-join-loader.ts)
  it('answers the reverse join with the newest documents per parent, as a full sort would', () => {
    const { run, logs } = setUp();
    const sortBy = { time: -1, _id: -1 };
    const parents = [host(3), host(11), host(19)];
    const docs = aggregate(run, [
      { $match: { 'host.id': { $in: parents } } },
      { $sort: sortBy },
      { $project: { _id: 1, 'host.id': 1, message: 1, time: 1 } },
      { $group: { _id: '$host.id', docs: { $topN: { n: 3, sortBy, output: '$$ROOT' } } } },
      { $unwind: '$docs' },
      { $replaceRoot: { newRoot: '$docs' } },
    ]);
    const expected = parents.flatMap((parent) =>
      sortDocuments(
        logs.filter((log) => log.host.id.equals(parent)),
        sortBy,
      )
        .slice(0, 3)
        .map((log) => ({ _id: log._id, time: log.time, message: log.message, host: { id: parent } })),
    );
    // groups come out in any order (MongoDB leaves it unspecified); each parent's children newest first
    const byParent = (list: Document[]): Map<string, unknown[]> => {
      const map = new Map<string, unknown[]>();
      for (const doc of list) map.set(String(doc.host.id), [...(map.get(String(doc.host.id)) ?? []), doc]);
      return map;
    };
    expect(docs).toHaveLength(9);
    expect(byParent(docs)).toEqual(byParent(expected));
    expect(Object.keys(docs[0]!)).toEqual(['_id', 'time', 'message', 'host']);
  });

  // the gateway's reverse join with a per-parent limit (src/gateway/loaders/reverse-join-loader.ts)
  it('runs each $unionWith branch\'s leading $match, $sort and $limit in storage (index + top-k)', () => {
    const { store, run, logs } = setUp();
    const collection = store.collection('db', 'logs')!;
    const sortBy = { time: -1, _id: -1 };
    const branch = (parent: ObjectId): Document[] => [{ $match: { 'host.id': parent } }, { $sort: sortBy }, { $limit: 3 }, { $project: { _id: 1, time: 1 } }];
    const parents = [host(3), host(11), host(19)];
    const before = collection.docsExamined;
    const docs = aggregate(run, [...branch(parents[0]!), ...parents.slice(1).map((parent) => ({ $unionWith: { coll: 'logs', pipeline: branch(parent) } }))]);
    const expected = parents.flatMap((parent) =>
      sortDocuments(
        logs.filter((log) => log.host.id.equals(parent)),
        sortBy,
      )
        .slice(0, 3)
        .map((log) => ({ _id: log._id, time: log.time })),
    );
    expect(docs).toEqual(expected);
    // 50 index candidates per parent, not 1,000 per branch
    expect(collection.docsExamined - before).toBe(150);
  });

  it('applies $sort with $skip and $limit like a find with a bounded sort', () => {
    const { run, logs } = setUp();
    const sorted = sortDocuments(logs, { time: 1, _id: -1 }).map((log) => log._id);
    const ids = (pipeline: Document[]): unknown[] => aggregate(run, pipeline).map((doc) => doc._id);
    expect(ids([{ $sort: { time: 1, _id: -1 } }, { $skip: 5 }, { $limit: 4 }])).toEqual(sorted.slice(5, 9));
    expect(ids([{ $sort: { time: 1, _id: -1 } }, { $limit: 9 }, { $skip: 5 }])).toEqual(sorted.slice(5, 9));
    expect(ids([{ $match: { message: { $gte: 'm99' } } }, { $limit: 2 }])).toEqual([99, 990]);
    expect(ids([{ $sort: { _id: -1 } }, { $limit: 3 }])).toEqual([999, 998, 997]);
    expect(ids([{ $limit: 5 }, { $skip: 10 }])).toEqual([]);
  });

  it('rejects a bad $sort direction as the pipeline did (15975)', () => {
    const { run } = setUp();
    expect(() => aggregate(run, [{ $sort: { time: 2 } }])).toThrow(/must be 1/);
    expect(() => aggregate(run, [{ $match: { 'host.id': host(1) } }, { $sort: { time: 1, _id: 'x' } }, { $limit: 1 }])).toThrow(/must be 1/);
  });
});

describe('aggregate: $lookup reads only the foreign documents it joins, through an index on the foreign field', () => {
  /** 20 hosts, and the 1,000 messages of setUp pointing at them by host.id (indexed). */
  function withHosts(): ReturnType<typeof setUp> {
    const set = setUp();
    set.run({ insert: 'hosts', documents: Array.from({ length: 20 }, (_, n) => ({ _id: host(n), name: `h${n}`, tier: n % 2 })) });
    return set;
  }
  const lookupFrom = (run: (command: Document) => Document, pipeline: Document[]): Document[] =>
    (run({ aggregate: 'hosts', pipeline, cursor: { batchSize: 10_000 } }).cursor as { firstBatch: Document[] }).firstBatch;

  it('localField/foreignField: one index lookup of the parents\' keys, not a read of every message', () => {
    const { store, run, logs } = withHosts();
    const collection = store.collection('db', 'logs')!;
    const before = collection.docsExamined;
    const joined = lookupFrom(run, [{ $match: { tier: 1 } }, { $lookup: { from: 'logs', localField: '_id', foreignField: 'host.id', as: 'logs' } }, { $project: { n: { $size: '$logs' } } }]);
    expect(joined.map((row) => row.n)).toEqual(Array.from({ length: 10 }, () => 50));
    // The 10 odd hosts' 500 messages, each fetched once.
    expect(collection.docsExamined - before).toBe(500);
    expect(logs.filter((log) => [1, 3].some((n) => log.host.id.equals(host(n))))).toHaveLength(100);
  });

  it('let/pipeline correlated by $eq: the same lookup, then the pipeline (sort, limit per parent) over each parent\'s messages', () => {
    const { store, run, logs } = withHosts();
    const collection = store.collection('db', 'logs')!;
    const before = collection.docsExamined;
    const sortBy = { time: -1, _id: -1 };
    const joined = lookupFrom(run, [
      { $match: { _id: { $in: [host(3), host(11)] } } },
      { $sort: { _id: 1 } },
      {
        $lookup: {
          from: 'logs',
          let: { host: '$_id' },
          pipeline: [{ $match: { $expr: { $and: [{ $eq: ['$host.id', '$$host'] }, { $ne: ['$message', 'none'] }] } } }, { $sort: sortBy }, { $limit: 3 }, { $project: { _id: 1 } }],
          as: 'newest',
        },
      },
    ]);
    const newest = (n: number) => sortDocuments(logs.filter((log) => log.host.id.equals(host(n))), sortBy).slice(0, 3).map((log) => ({ _id: log._id }));
    expect(joined.map((row) => row.newest)).toEqual([newest(3), newest(11)]);
    expect(collection.docsExamined - before).toBe(100);
  });

  it('by _id, parents without the local field (which join by null) still read only the documents named: null is looked up by key', () => {
    const { store, run } = withHosts();
    run({ insert: 'logs', documents: [{ _id: null, message: 'the log whose _id is null' }] });
    run({ insert: 'alerts', documents: [{ _id: 1, logId: 7 }, { _id: 2 }, { _id: 3, logId: [8, 9] }, { _id: 4, logId: null }] });
    const collection = store.collection('db', 'logs')!;
    const before = collection.docsExamined;
    const joined = (run({ aggregate: 'alerts', pipeline: [{ $lookup: { from: 'logs', localField: 'logId', foreignField: '_id', as: 'logs' } }, { $project: { ids: '$logs._id' } }], cursor: {} }).cursor as { firstBatch: Document[] }).firstBatch;
    // As MongoDB joins them: a missing or null local field matches the foreign document whose _id is null.
    expect(joined).toEqual([
      { _id: 1, ids: [7] },
      { _id: 2, ids: [null] },
      { _id: 3, ids: [8, 9] },
      { _id: 4, ids: [null] },
    ]);
    // 7, 8, 9 and the null one, out of 1,001 messages.
    expect(collection.docsExamined - before).toBe(4);
  });

  it('by an indexed top-level field, parents without the local field join through the index\'s null key, not a read of every message', () => {
    const { store, run } = withHosts();
    const messages = Array.from({ length: 200 }, (_, i) => ({ _id: i, hostId: host(i % 20) }));
    run({ insert: 'messages', documents: [...messages, { _id: 'hostless' }] });
    run({ createIndexes: 'messages', indexes: [{ key: { hostId: 1 }, name: 'hostId_1' }] });
    run({ insert: 'alerts', documents: [{ _id: 1, hostId: host(1) }, { _id: 2 }] });
    const collection = store.collection('db', 'messages')!;
    const before = collection.docsExamined;
    const joined = (run({ aggregate: 'alerts', pipeline: [{ $lookup: { from: 'messages', localField: 'hostId', foreignField: 'hostId', as: 'messages' } }, { $project: { ids: '$messages._id' } }], cursor: {} }).cursor as { firstBatch: Document[] }).firstBatch;
    expect(joined).toEqual([
      { _id: 1, ids: messages.filter((message) => message.hostId.equals(host(1))).map((message) => message._id) },
      { _id: 2, ids: ['hostless'] },
    ]);
    // host(1)'s 10 messages and the one without a host, out of 201.
    expect(collection.docsExamined - before).toBe(11);
  });

  it('joins as before where no index serves the foreign field', () => {
    const { run, logs } = withHosts();
    const joined = lookupFrom(run, [{ $match: { _id: host(4) } }, { $lookup: { from: 'logs', localField: 'name', foreignField: 'host.name', as: 'logs' } }, { $project: { ids: '$logs._id' } }]);
    expect(joined[0]!.ids).toEqual(logs.filter((log) => log.host.name === 'h4').map((log) => log._id));
  });
});

describe('find', () => {
  it('answers sort + limit from a bounded top-k and sort on _id from the _id order', () => {
    const { store, run, logs } = setUp();
    const collection = store.collection('db', 'logs')!;
    const find = (command: Document): unknown[] => ((run({ find: 'logs', ...command }).cursor as { firstBatch: Document[] }).firstBatch).map((doc) => doc._id);
    expect(find({ filter: {}, sort: { time: -1, _id: 1 }, skip: 3, limit: 4 })).toEqual(sortDocuments(logs, { time: -1, _id: 1 }).slice(3, 7).map((log) => log._id));
    const before = collection.docsExamined;
    expect(find({ filter: {}, sort: { _id: -1 }, limit: 20 })).toEqual(Array.from({ length: 20 }, (_, i) => 999 - i));
    expect(collection.docsExamined - before).toBe(20);
  });
});
