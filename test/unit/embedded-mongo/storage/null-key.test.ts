import type { Document } from 'bson';
import { compileFilter } from '../../../../src/embedded-mongo/query';
import { EqualityIndex } from '../../../../src/embedded-mongo/storage/equality-index';

/**
 * A null equality is looked up under an index's null key (query-planner.ts), so that key must hold
 * every document the filter matches by null: a missing field, a null, a path through arrays of
 * documents some of which lack it, an empty array on the way. Random documents over the paths an
 * index may be on, checked against the embedded server's own filter.
 */
const SEED = Number(process.env.NULL_KEY_SEED ?? 20261207);
const DOCUMENTS = 2_000;

function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

function randomValue(next: () => number, depth: number): unknown {
  const leaves = [null, 1, 'x', undefined, [], [null, 2], [3]];
  if (depth > 2) return leaves[Math.floor(next() * leaves.length)];
  switch (Math.floor(next() * 8)) {
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
      return [{ b: randomValue(next, depth + 1) }, 3];
    case 6:
      return [{ c: 1 }, { b: 2 }];
    default:
      return { c: 1 };
  }
}

describe(`an index's null key holds every document a null equality matches (seed ${SEED})`, () => {
  it.each(['a', 'a.b', 'a.b.b', 'a.0', 'a.0.b', 'a.1.b'])('on %s', (path) => {
    const next = random(SEED);
    const index = new EqualityIndex({ name: `${path}_1`, key: { [path]: 1 }, unique: false, sparse: false, options: {} });
    const documents = Array.from({ length: DOCUMENTS }, (_, id) => {
      const value = randomValue(next, 0);
      return (value === undefined ? { _id: id } : { _id: id, a: value }) as Document;
    });
    for (const doc of documents) index.add(doc);
    const underNull = new Set(index.lookup([null]));
    const matchesNull = compileFilter({ [path]: null });
    const matched = documents.filter((doc) => matchesNull(doc));
    // Enough of each kind to mean something: missing at the top, and found some other way.
    expect(matched.filter((doc) => doc.a === undefined).length).toBeGreaterThan(20);
    expect(matched.filter((doc) => doc.a !== undefined && doc.a !== null).length).toBeGreaterThan(50);
    expect(matched.filter((doc) => !underNull.has(doc))).toEqual([]);
  });
});
