import { DBRef, ObjectId, type Document } from 'bson';
import { dataCommands } from '../../../../../src/embedded-mongo/commands/data';
import { Store } from '../../../../../src/embedded-mongo/storage/store';

/**
 * A null equality may be looked up under an index's null key (query-planner.ts) instead of scanning:
 * whatever the index, it must find what a scan finds. Seeded random documents (missing fields, nulls,
 * arrays, empty arrays, documents, DBRefs, regexes, numeric field names) go into a collection without
 * an index and into one with it (non-sparse, sparse, on a top-level field or a dotted path), and every
 * filter that matches by null answers the same ids from both.
 */
const SEED = Number(process.env.NULL_EQUALITY_SEED ?? 20261207);
const DOCUMENTS = 600;
const context = { db: 'db', connectionId: 1 };

function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

function randomValue(next: () => number, depth: number): unknown {
  const leaves = [null, 1, 'x', undefined, [], [null, 2], [3], new DBRef('other', new ObjectId('000000000000000000000005')), /x/];
  if (depth > 2) return leaves[Math.floor(next() * leaves.length)];
  switch (Math.floor(next() * 9)) {
    case 0:
      return leaves[Math.floor(next() * leaves.length)];
    case 1:
      return { b: randomValue(next, depth + 1) };
    case 2:
      return {};
    case 3:
      return [randomValue(next, depth + 1), randomValue(next, depth + 1)];
    case 4:
      return [];
    case 5:
      return [{ b: randomValue(next, depth + 1) }, new DBRef('other', new ObjectId('000000000000000000000006'))];
    case 6:
      return [{ '1': 'x' }];
    case 7:
      return { '0': randomValue(next, depth + 1), source: 1 };
    default:
      return [{ c: 1 }, { b: 2 }];
  }
}

function collections(path: string, sparse: boolean): { find: (collection: string, filter: Document) => unknown[] } {
  const store = new Store();
  const commands = dataCommands(store);
  const run = (command: Document): Document => commands[Object.keys(command)[0]!]!(command, context) as Document;
  const next = random(SEED);
  const documents = Array.from({ length: DOCUMENTS }, (_, id) => {
    const value = randomValue(next, 0);
    return value === undefined ? { _id: id } : { _id: id, a: value };
  });
  run({ insert: 'scanned', documents });
  run({ insert: 'indexed', documents });
  run({ createIndexes: 'indexed', indexes: [{ key: { [path]: 1 }, name: 'by_path', sparse }] });
  const find = (collection: string, filter: Document): unknown[] => (run({ find: collection, filter, batchSize: DOCUMENTS }).cursor as { firstBatch: Document[] }).firstBatch.map((doc) => doc._id).sort((x, y) => Number(x) - Number(y));
  return { find };
}

describe(`a null equality finds the same documents with an index as without (seed ${SEED})`, () => {
  const cases = ['a', 'a.b', 'a.0', 'a.1', 'a.1.b', 'a.source'].flatMap((path) => [false, true].map((sparse) => [path, sparse] as const));
  it.each(cases)('on %s (sparse: %s)', (path, sparse) => {
    const { find } = collections(path, sparse);
    for (const filter of [{ [path]: null }, { [path]: { $eq: null } }, { [path]: { $in: [1, null] } }, { $and: [{ [path]: { $in: ['x', null] } }, { _id: { $gte: 0 } }] }]) {
      const scanned = find('scanned', filter);
      expect(scanned.length).toBeGreaterThan(10);
      expect(find('indexed', filter)).toEqual(scanned);
    }
  });
});
