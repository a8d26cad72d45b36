/**
 * The embedded server answers a `$lookup` whose pipeline starts with a page (`$match`, `$sort`,
 * `$skip`, `$limit`) and goes on with one-for-one stages (`$project`, nested `$lookup`s) without
 * running the pipeline once per parent: the page from storage per parent, the rest once over every
 * parent (run-pipeline.ts splitPerParent). A `let` that binds a variable keeps the per-parent path,
 * which runs the pipeline as written. Random pipelines over random data, both ways: the answers must
 * be equal. Against MONGODB_URI both ways are MongoDB's own, and must agree too.
 */
import type { Document } from 'mongodb';
import { useCompatDatabase } from './support/compat-helpers';

const ctx = useCompatDatabase('compat_lookup_paths');
const SEED = 20261129;
const PIPELINES = 60;

/** A small deterministic generator (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

beforeAll(async () => {
  const next = random(SEED);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
  const parents: Document[] = [];
  // More parents than the batched path joins at a time (64): its chunks meet.
  for (let id = 0; id < 80; id++) {
    // References: a scalar, an array (repeats too), null or missing.
    const ref = pick<unknown>([id % 4, [id % 4, (id + 1) % 4], [2, 2], null, undefined]);
    parents.push({ _id: id, ...(ref !== undefined && { ref }), group: id % 3 });
  }
  const children: Document[] = [];
  for (let id = 0; id < 200; id++) {
    const parent = pick<unknown>([0, 1, 2, 3, 4, null, undefined, [1, 3]]);
    children.push({ _id: 1000 + id, ...(parent !== undefined && { parent }), rank: Math.floor(next() * 5), tag: pick(['a', 'b', 'c']), kind: id % 4 });
  }
  const kinds = [0, 1, 2, 3].map((id) => ({ _id: id, label: `kind ${id}` }));
  await ctx.db.collection('parents').insertMany(parents as Document[]);
  await ctx.db.collection('children').insertMany(children as Document[]);
  await ctx.db.collection('kinds').insertMany(kinds as Document[]);
  await ctx.db.collection('children').createIndex({ parent: 1, rank: -1, _id: 1 });
});

function randomPipeline(next: () => number): { local: string; lookup: (letBinding: boolean) => Document } {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
  const page: Document[] = [];
  if (next() < 0.5) page.push({ $match: pick([{ tag: 'a' }, { rank: { $gte: 2 } }, { tag: { $in: ['b', 'c'] } }]) });
  if (next() < 0.8) page.push({ $sort: pick([{ rank: -1, _id: 1 }, { _id: -1 }, { tag: 1, rank: 1, _id: 1 }]) });
  if (next() < 0.3) page.push({ $skip: pick([0, 1, 2]) });
  if (next() < 0.7) page.push({ $limit: pick([1, 2, 5]) });
  const nested = next() < 0.5 ? [{ $lookup: { from: 'kinds', localField: 'kind', foreignField: '_id', as: 'kinds', pipeline: [{ $project: { _id: 0, label: 1 } }] } }] : [];
  const projection = { $project: { _id: 1, rank: 1, tag: 1, ...(nested.length > 0 && { kinds: 1 }) } };
  const local = pick(['ref', '_id', 'group']);
  return {
    local,
    lookup: (letBinding) => ({
      $lookup: { from: 'children', localField: local, foreignField: 'parent', as: 'joined', ...(letBinding && { let: { unused: '$_id' } }), pipeline: [...page, ...nested, projection] },
    }),
  };
}

it(`${PIPELINES} random paged lookups of 80 parents answer the same by the batched path and the per-parent one (seed ${SEED})`, async () => {
  const next = random(SEED + 1);
  const mismatches: Array<{ pipeline: Document; batched: Document[]; perParent: Document[] }> = [];
  let joined = 0;
  for (let index = 0; index < PIPELINES; index++) {
    const { lookup } = randomPipeline(next);
    const run = (letBinding: boolean) => ctx.db.collection('parents').aggregate([{ $sort: { _id: 1 } }, lookup(letBinding)]).toArray();
    const [batched, perParent] = [await run(false), await run(true)];
    joined += batched.reduce((sum, parent) => sum + (parent.joined as unknown[]).length, 0);
    if (JSON.stringify(batched) !== JSON.stringify(perParent)) mismatches.push({ pipeline: lookup(false), batched, perParent });
  }
  expect(mismatches.slice(0, 1)).toEqual([]);
  // The pipelines joined something: the comparison is not between empty answers.
  expect(joined).toBeGreaterThan(PIPELINES * 5);
});
