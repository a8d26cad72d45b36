import type { Document } from 'bson';
import { Aggregator } from 'mingo/aggregator';
import { evalExpr } from 'mingo/core';
import { concat, Lazy } from 'mingo/lazy';
import * as mingoPipeline from 'mingo/operators/pipeline';
import type { CollectionResolver, Options } from 'mingo/types';
import { CommandError, ErrorCodes, LocationCodes, locationError } from '../protocol/command-error';
import { checkTimeLimit } from '../protocol/command-time-limit';
import { isLong, isNumeric, isPlainDocument } from './bson-kind';
import { longToBigInt, plainNumber } from '../../bson/bson-number';
import { cloneDocument, deepFrozen, thawDocument, unsharedValue } from './clone-document';
import { compileFieldProjection, pathClaims } from './apply-projection';
import { valueComparator, type Collation } from './collation';
import { groupByComparator } from './collated-groups';
import { compileFilter } from './compile-filter';
import { compiledOr } from './compile-expression';
import { equalityKeys, foreignJoinFilter, localJoinValues } from './equality-join';
import { withMongoFieldPaths } from './field-path';
import { collationOf, createContext, undefinedVariableError, withCollation, withLocals, type StageOperator } from './mingo-context';
import { markPresortedGroups } from './presorted-groups';
import { randomSample } from './random-sample';
import { compileSort, firstSorted, sortDocuments } from './sort-documents';
import type { ValueComparator } from '../../bson/compare-values';
import { valueKey } from './value-key';
import { TypeRank, typeRank } from '../../bson/type-rank';

/** Where `$lookup`/`$unionWith` find other collections of the same database. */
export interface PipelineContext {
  collection(name: string): Iterable<Document>;
  /** The sort the input documents already arrive in, stably (e.g. a `$sort` that storage ran). */
  readonly inputOrder?: Document;
  /**
   * Runs one `$unionWith` branch: `pipeline` over the collection `name` of the same database, so the
   * caller can run its leading stages in storage (index, top-k). Default: `runPipeline` over `collection(name)`.
   */
  unionWith?(name: string, pipeline: Document[]): Iterable<Document>;
  /**
   * The documents of the collection `name` that `filter` (a `$lookup`'s join filter, equality-join.ts)
   * matches, read through an index that serves it; undefined when none does. `$lookup` then reads only
   * the foreign documents its local values name, instead of the whole collection.
   */
  lookup?(name: string, filter: Document): Iterable<Document> | undefined;
  /** The operation's collation: every stage that compares strings (`$match $sort $group $lookup` …) uses it. */
  readonly collation?: Collation;
  /** The operation's `let` variables, read as `$$name` in every stage (nested pipelines included). */
  readonly variables?: Readonly<Record<string, unknown>>;
}

/** Stages that write to a collection: the aggregate command runs them (aggregate-output.ts), only as the last stage. */
export const OUTPUT_STAGES: ReadonlySet<string> = new Set(['$out', '$merge']);

type UnionBranch = (name: string, pipeline: Document[]) => Iterable<Document>;

/**
 * mingo hands a stage only its options; the collection resolver is the one per-run object it carries
 * unchanged into nested pipelines, so `$unionWith` finds its run's branch runner through it.
 */
const UNION_BRANCHES = new WeakMap<CollectionResolver, UnionBranch>();
/** The run's indexed lookup (PipelineContext.lookup), found the same way by `$lookup`. */
const INDEXED_LOOKUPS = new WeakMap<CollectionResolver, NonNullable<PipelineContext['lookup']>>();

/**
 * Runs an aggregation pipeline with mingo's stage implementations, except the stages that compare,
 * hash or match values, which are ours: `$match` (our filter), `$sort`, `$group` (keys by
 * valueKey), `$sortByCount`, the equality `$lookup` (a hash join, O(n + m)), and `$unwind`.
 * Input documents are never mutated, and deep-frozen ones (stored documents) are never copied
 * until a stage needs to change them: ours and the read-only mingo stages (`$project` of plain fields, `$replaceRoot`,
 * `$limit`, `$skip`) pass stored documents through; every other mingo stage gets thawed copies.
 */
export function runPipeline(docs: Iterable<Document>, pipeline: Document[], context: PipelineContext): Document[] {
  if (!Array.isArray(pipeline)) throw badValue("'pipeline' option must be specified as an array");
  for (const stage of pipeline) {
    const names = isPlainDocument(stage) ? Object.keys(stage) : [];
    if (names.length !== 1) throw new CommandError(40323, 'Location40323', 'A pipeline stage specification object must contain exactly one field.');
    const name = names[0] as string;
    if (!(name in PIPELINE_OPERATORS)) throw new CommandError(40324, 'Location40324', `Unrecognized pipeline stage name: '${name}'`);
    if (OUTPUT_STAGES.has(name) && stage !== pipeline[pipeline.length - 1]) {
      throw locationError(LocationCodes.writeStageNotLast, `${name} can only be the final stage in the pipeline`);
    }
  }
  const scope = { collation: context.collation, variables: context.variables };
  let start = 0;
  let input: Iterable<Document> = docs;
  while (start < pipeline.length && '$match' in (pipeline[start] as Document)) {
    const predicate = compileFilter((pipeline[start] as Document).$match as Document, scope);
    input = filterIterable(input, predicate);
    start += 1;
  }
  // Nothing left for mingo (a storage read, a branch or a lookup's foreign read): no Aggregator to build.
  if (start === pipeline.length) return withCommandErrors(() => [...borrowed(input)]);
  const cache = new Map<string, Document[]>();
  const collectionResolver: CollectionResolver = (name) => {
    let docsOfCollection = cache.get(name);
    if (!docsOfCollection) {
      docsOfCollection = [...context.collection(name)];
      cache.set(name, docsOfCollection);
    }
    return docsOfCollection;
  };
  if (context.lookup) INDEXED_LOOKUPS.set(collectionResolver, context.lookup.bind(context));
  UNION_BRANCHES.set(
    collectionResolver,
    context.unionWith?.bind(context) ??
      ((name, branch) => runPipeline(context.collection(name), branch, { ...scope, collection: (other) => context.collection(other) })),
  );
  const options: Partial<Options> = withCollation({ context: PIPELINE_CONTEXT, collectionResolver, variables: context.variables }, context.collation);
  return withCommandErrors(() => new Aggregator(markPresortedGroups(pipeline.slice(start), context.inputOrder), options).run(borrowed(input)) as Document[]);
}

/** Runs `run`, turning what mingo (or a filter) throws into the command error MongoDB gives. */
function withCommandErrors(run: () => Document[]): Document[] {
  try {
    return run();
  } catch (error) {
    if (error instanceof CommandError) throw error;
    throw undefinedVariableError(error) ?? badValue((error as Error).message);
  }
}

/**
 * Frozen documents (stored ones are deep-frozen) go in as they are, since a stage that may mutate
 * its input thaws a copy first; anything else is the caller's to keep, so it is copied up front.
 */
function* borrowed(docs: Iterable<Document>): Iterable<Document> {
  for (const doc of docs) {
    checkTimeLimit();
    yield Object.isFrozen(doc) ? doc : cloneDocument(doc);
  }
}

function* filterIterable(docs: Iterable<Document>, predicate: (doc: Document) => boolean): Iterable<Document> {
  for (const doc of docs) {
    checkTimeLimit();
    if (predicate(doc)) yield doc;
  }
}

const mingoLookup = mingoPipeline.$lookup as unknown as StageOperator;

/** MongoDB docs: "$count (aggregation)" — no document reaches the stage, no document leaves it. */
const $count: StageOperator = (coll, expr) => {
  if (typeof expr !== 'string' || expr === '' || expr.startsWith('$') || expr.includes('.')) {
    throw badValue('the count field must be a non-empty string that does not start with $ or contain .');
  }
  return coll.transform((items) => Lazy(items.length === 0 ? [] : [{ [expr]: items.length }]));
};

/**
 * MongoDB docs: "$sample" — `size` documents chosen at random, each at most once (all of them, in
 * random order, when there are fewer). mingo's own draws with replacement.
 */
const $sample: StageOperator = (coll, expr) => {
  const size = sampleSize(expr);
  return coll.transform((items) => Lazy(randomSample(items as Document[], size)));
};

/** The `size` of a `$sample` spec, checked as MongoDB's DocumentSourceSample::createFromBson does. */
function sampleSize(expr: unknown): number {
  if (!isPlainDocument(expr)) throw new CommandError(28745, 'Location28745', 'the $sample stage specification must be an object');
  let size: number | undefined;
  for (const [field, value] of Object.entries(expr)) {
    if (field !== 'size') throw new CommandError(28748, 'Location28748', `unrecognized option to $sample: ${field}`);
    if (!isNumeric(value)) throw new CommandError(28746, 'Location28746', 'size argument to $sample must be a number');
    size = integralPart(value);
    if (size < 0) throw new CommandError(28747, 'Location28747', 'size argument to $sample must not be negative');
  }
  if (size === undefined) throw new CommandError(28749, 'Location28749', '$sample stage must specify a size');
  return size;
}

/** A numeric BSON value truncated toward zero, as MongoDB's `numberLong()` reads it (NaN is 0). */
function integralPart(value: unknown): number {
  const plain = plainNumber(value);
  if (plain !== undefined) return Number.isNaN(plain) ? 0 : Math.trunc(plain);
  if (isLong(value)) return Number(longToBigInt(value));
  const decimal = Number(String(value));
  return Number.isNaN(decimal) ? 0 : Math.trunc(decimal);
}

const $match: StageOperator = (coll, expr, options) => {
  const predicate = compileFilter(expr as Document, { collation: collationOf(options) }, (doc, expression) => evalExpr(doc, expression, options));
  return coll.filter((doc) => predicate(doc as Document));
};

const $sort: StageOperator = (coll, expr, options) =>
  coll.transform((items) => Lazy(sortDocuments(items as Document[], expr as Document, collationOf(options))));

/** `$out`/`$merge` reached inside a pipeline the aggregate command does not run itself ($facet, $lookup, updates). */
const outputStageNotAllowed =
  (name: string): StageOperator =>
  () => {
    throw badValue(`${name} is only allowed as the last stage of an aggregate command's pipeline`);
  };

/** MongoDB docs: "$group" — documents whose `_id` values are equal (by BSON equality) form one group. */
const $group: StageOperator = (coll, expr, options) => {
  const spec = expr as Document;
  if (!isPlainDocument(spec) || !('_id' in spec)) {
    throw new CommandError(15955, 'Location15955', 'a group specification must specify an _id');
  }
  const fields = Object.keys(spec).filter((key) => key !== '_id');
  const idPath = plainFieldPath(spec._id);
  const collation = collationOf(options);
  return coll.transform((items) => {
    const itemOptions = withLocals(options, {}) as Options & { update(locals: Record<string, unknown>): Options };
    const idOf = (item: unknown): unknown => {
      const id: unknown = idPath === undefined ? NOT_PLAIN : readPlainPath(item, idPath);
      return id === NOT_PLAIN ? evalExpr(item, spec._id, itemOptions.update({ root: item })) : id;
    };
    const groups =
      collation === undefined
        ? groupByKey(items, idOf)
        : groupByComparator(items, (item) => idOf(item) ?? null, valueComparator(collation)).map(({ key, members }) => ({ id: key, members }));
    const out: Document[] = [];
    for (const { id, members } of groups) {
      checkTimeLimit();
      // Accumulators hand back members' values: each field gets its own copy of their unfrozen parts, so a later write into one field reaches no other.
      const result: Document = { _id: unsharedValue(id) };
      const groupOptions = withLocals(options, { root: null, groupId: id });
      for (const field of fields) result[field] = unsharedValue(evalExpr(members, spec[field], groupOptions));
      out.push(result);
    }
    return Lazy(out);
  });
};

/** Documents grouped by the `valueKey` of their `_id` (binary equality), groups in first-seen order. */
function groupByKey(items: readonly unknown[], idOf: (item: unknown) => unknown): Iterable<{ id: unknown; members: unknown[] }> {
  const groups = new Map<string, { id: unknown; members: unknown[] }>();
  for (const item of items) {
    checkTimeLimit();
    const id = idOf(item);
    const key = valueKey(id);
    const group = groups.get(key);
    if (group) group.members.push(item);
    else groups.set(key, { id: id === undefined ? null : id, members: [item] });
  }
  return groups.values();
}

/** Marks a field path that crossed an array, which only mingo's evaluator resolves (into an array of values). */
const NOT_PLAIN = Symbol('not a plain path');

/** The parts of a `"$a.b"` field path expression, or undefined for any other expression. */
function plainFieldPath(expression: unknown): string[] | undefined {
  if (typeof expression !== 'string' || !expression.startsWith('$') || expression.startsWith('$$')) return undefined;
  const parts = expression.slice(1).split('.');
  return parts.every((part) => part.length > 0) ? parts : undefined;
}

/** A field path through documents only; NOT_PLAIN when it meets an array before its last part. */
function readPlainPath(doc: unknown, parts: readonly string[]): unknown {
  let value = doc;
  for (const part of parts) {
    if (Array.isArray(value)) return NOT_PLAIN;
    if (!isPlainDocument(value)) return undefined;
    value = value[part];
  }
  return value;
}

const $sortByCount: StageOperator = (coll, expr, options) => {
  const grouped = $group(coll, { _id: expr, count: { $sum: 1 } }, options);
  return $sort(grouped, { count: -1 }, options);
};

interface LookupSpec {
  readonly from?: unknown;
  readonly localField?: unknown;
  readonly foreignField?: unknown;
  readonly as?: unknown;
  readonly let?: unknown;
  readonly pipeline?: unknown;
}

/**
 * MongoDB docs: "$lookup" — a parent's foreign documents are those its localField values name
 * (equality-join.ts). The parents' local values are gathered first, so the foreign side is read once:
 * only the documents they name, through an index on foreignField when the collection has one
 * (PipelineContext.lookup), else the whole collection; then hashed by equalityKeys, and each parent's
 * candidates decided by its join filter. A `let`/`pipeline` lookup whose first stage matches a foreign
 * field equal to a variable bound to a local field (`$expr: { $eq: ['$sku', '$$item'] }`, alone or in
 * an `$and`) is read the same way: its pipeline then runs, whole, over each parent's candidates only.
 */
const $lookup: StageOperator = (coll, expr, options) => {
  const spec = expr as LookupSpec;
  if (typeof spec.as !== 'string') throw badValue("$lookup requires an 'as' field");
  const concise = spec.localField !== undefined || spec.foreignField !== undefined;
  if (concise && (typeof spec.localField !== 'string' || typeof spec.foreignField !== 'string')) {
    throw badValue('$lookup requires both localField and foreignField as strings');
  }
  const join = concise ? conciseJoin(spec.localField as string, spec.foreignField as string) : correlatedEquality(spec);
  if (join === undefined || typeof spec.from !== 'string') {
    if (concise) throw badValue("$lookup requires a 'from' collection name");
    return mingoLookup(coll, expr, options);
  }
  const from = spec.from;
  const foreignParts = join.foreign.split('.');
  const collation = collationOf(options);
  const as = spec.as;
  const subPipeline = Array.isArray(spec.pipeline) && spec.pipeline.length > 0 ? (spec.pipeline as Document[]) : undefined;
  const split = concise && subPipeline && !hasVariables(spec.let) ? splitPerParent(subPipeline, options) : undefined;
  return coll.transform((items) => {
    const parents = items as Document[];
    const valuesOf = parents.map(join.valuesOf);
    // Each value's valueKey, once: the hash finds candidates by it, and it names a parent's set of values.
    const keysOf = valuesOf.map((values) => values.map((value) => valueKey(value)));
    // Read and hashed once, when a parent first needs its candidates (a paged split reads them from storage instead).
    let hashed: { readonly foreign: readonly Document[]; readonly positionsOf: (index: number) => readonly number[] } | undefined;
    const candidatesOf = (index: number): Document[] => {
      if (!hashed) {
        const foreign = foreignDocuments(options, from, foreignJoinFilter(join.foreign, distinctValues(concatenated(valuesOf), concatenated(keysOf))));
        hashed = { foreign, positionsOf: collation === undefined ? hashedPositions(foreign, foreignParts, keysOf) : collatedPositions(foreign, foreignParts, valueComparator(collation), valuesOf) };
      }
      const { foreign, positionsOf } = hashed;
      const values = valuesOf[index]!;
      const candidates = positionsOf(index).map((position) => foreign[position] as Document);
      if (!join.decidedByFilter || (collation === undefined && hashDecides(foreignParts, values))) return candidates;
      const joins = compileFilter(foreignJoinFilter(join.foreign, values), { collation });
      return candidates.filter((candidate) => joins(candidate));
    };
    if (split) return Lazy(joinedTogether(parents, as, { from, foreign: join.foreign, valuesOf, keysOf }, candidatesOf, split, options));
    // Joined one parent at a time, as the next stage pulls them: a `$limit` after it joins only what it keeps.
    function* joined(): Iterable<Document> {
      for (const [index, doc] of parents.entries()) {
        checkTimeLimit();
        // Stored documents are frozen: shared by every parent that holds them, as any stage thaws a copy before it writes.
        if (!subPipeline) yield setField(doc, as, candidatesOf(index).map((candidate) => unsharedValue(candidate)));
        // Over this parent's documents only (a correlated lookup's candidates: its pipeline decides).
        else yield mingoLookup(Lazy([doc]), { from: candidatesOf(index).map((candidate) => cloneDocument(candidate)), let: spec.let ?? {}, pipeline: subPipeline, as }, options).next().value as Document;
      }
    }
    return Lazy(joined());
  });
};

/**
 * Whether the hash of equalityKeys finds exactly the documents a parent's join filter matches, so the
 * filter need not run: a top-level foreign field (its value, or an element of its array, equals the
 * parent's) and values of the kinds `$in` compares by equality alone (not null, which also finds a
 * missing field, nor a document, array or regex).
 */
function hashDecides(foreignParts: readonly string[], values: readonly unknown[]): boolean {
  return foreignParts.length === 1 && values.every((value) => HASH_DECIDED_KINDS.has(typeRank(value)));
}

const HASH_DECIDED_KINDS: ReadonlySet<TypeRank> = new Set([TypeRank.Number, TypeRank.String, TypeRank.ObjectId, TypeRank.Boolean, TypeRank.Date, TypeRank.Timestamp]);

/** A `$lookup` pipeline cut where its stages stop needing one parent's documents at a time. */
interface PerParentSplit {
  /** The leading `$match`, `$sort`, `$skip` and `$limit` stages, run over each parent's candidates. */
  readonly head: (candidates: Document[]) => Document[];
  /** Those stages as written, when they page (a `$sort` then a `$limit`): storage then reads each parent's page from an index. */
  readonly page: Document[] | undefined;
  /** The rest, each stage one document in, one out (`$project`, a nested `$lookup`…): run once per foreign document a chunk of parents brings. */
  readonly tail: Document[];
  /** Whether the tail gives a document the same output whoever joins it (nothing random in it): it then runs once per foreign document. */
  readonly tailIsDeterministic: boolean;
}

/** Stages that turn each document into exactly one, whatever the others: their run over many parents' documents splits back by count. */
const ONE_FOR_ONE: ReadonlySet<string> = new Set(['$project', '$addFields', '$set', '$unset', '$lookup', '$replaceRoot', '$replaceWith']);

/**
 * How to run a lookup's pipeline for every parent at once, as docjoin's lookups are written (a page,
 * then projections and nested lookups): each parent's candidates through the head (a compiled filter,
 * a bounded top-k sort, a slice), then the foreign documents the parents kept through the tail, one
 * run per chunk of parents, instead of the whole pipeline compiled and run once per parent. Undefined
 * for any other pipeline.
 */
function splitPerParent(pipeline: readonly Document[], options: Options): PerParentSplit | undefined {
  const collation = collationOf(options);
  const steps: Array<(documents: Document[]) => Document[]> = [];
  let index = 0;
  for (; index < pipeline.length; index++) {
    const stage = pipeline[index]!;
    const [name] = Object.keys(stage);
    const value: unknown = stage[name!];
    if (name === '$match' && isPlainDocument(value) && !JSON.stringify(value).includes('"$expr"')) {
      const predicate = compileFilter(value as Document, { collation });
      steps.push((documents) => documents.filter((doc) => predicate(doc)));
    } else if (name === '$sort' && isPlainDocument(value)) {
      const next = pipeline[index + 1];
      const limit = next && '$limit' in next ? plainNumber(next.$limit) : undefined;
      if (limit !== undefined && Number.isInteger(limit) && limit > 0) {
        steps.push((documents) => firstSorted(documents, value as Document, limit, collation));
        index += 1;
      } else steps.push((documents) => sortDocuments(documents, value as Document, collation));
    } else if ((name === '$limit' || name === '$skip') && plainNumber(value) !== undefined && Number.isInteger(plainNumber(value)) && plainNumber(value)! >= 0) {
      const count = plainNumber(value)!;
      if (name === '$limit' && count === 0) return undefined; // MongoDB refuses it: the stage runs as written
      steps.push((documents) => (name === '$limit' ? documents.slice(0, count) : documents.slice(count)));
    } else break;
  }
  const tail = pipeline.slice(index);
  if (!tail.every((stage) => ONE_FOR_ONE.has(Object.keys(stage)[0]!))) return undefined;
  const head = pipeline.slice(0, index);
  const pages = head.some((stage, at) => '$sort' in stage && head[at + 1] !== undefined && '$limit' in head[at + 1]!);
  const tailIsDeterministic = !RANDOM_OPERATORS.some((operator) => JSON.stringify(tail).includes(`"${operator}"`));
  return { head: (candidates) => steps.reduce((documents, step) => step(documents), candidates), page: pages ? head : undefined, tail, tailIsDeterministic };
}

/**
 * Operators and stages (in a nested pipeline) whose result may differ from one evaluation to the next
 * over the same document. Written in the tail only: a nested lookup into a view that samples is not seen.
 */
const RANDOM_OPERATORS = ['$rand', '$sampleRate', '$sample', '$function', '$accumulator'];

/**
 * Every parent's documents through the split pipeline. A paged head (the newest few of each parent)
 * goes to storage as one branch per parent, its join filter (foreignJoinFilter) first, as a
 * `$unionWith` branch is: an index on the foreign field and the sort reads only the page, where
 * sorting every candidate would read all of them. Parents that join by the same values get the same
 * documents (the pipeline reads no variable), so each set of values runs its head once; and a foreign
 * document's tail output depends on that document alone, so the tail runs once per foreign document,
 * its output deep-frozen and shared by every parent holding it (a stage that writes thaws a copy): a
 * stock held by forty people is projected once, and a publisher shared by a hundred books has its
 * nested lookups run once.
 */
function* joinedTogether(
  parents: readonly Document[],
  as: string,
  join: { readonly from: string; readonly foreign: string; readonly valuesOf: readonly unknown[][]; readonly keysOf: readonly string[][] },
  candidatesOf: (index: number) => Document[],
  split: PerParentSplit,
  options: Options,
): Iterable<Document> {
  const branch = split.page && options.collectionResolver ? UNION_BRANCHES.get(options.collectionResolver) : undefined;
  const keptByValues = new Map<string, readonly Document[]>();
  const tailOutputs = new Map<Document, Document>();
  const runKeys = join.keysOf.map(runKey);
  // A chunk of parents at a time, as the next stage pulls them: a `$limit` after the lookup joins little more than it keeps.
  for (let start = 0; start < parents.length; start += LOOKUP_CHUNK) {
    const chunk = parents.slice(start, start + LOOKUP_CHUNK);
    const awaitingTail = new Set<Document>();
    chunk.forEach((_, offset) => {
      const index = start + offset;
      const key = runKeys[index]!;
      if (keptByValues.has(key)) return;
      checkTimeLimit();
      let kept: Document[];
      if (!branch) kept = split.head(candidatesOf(index));
      else kept = [...branch(join.from, [{ $match: foreignJoinFilter(join.foreign, distinctValues(join.valuesOf[index]!, join.keysOf[index]!)) }, ...split.page!])];
      keptByValues.set(key, kept);
      if (!split.tailIsDeterministic) return;
      for (const doc of kept) if (!tailOutputs.has(doc)) awaitingTail.add(doc);
    });
    const inputs = [...awaitingTail];
    const outputs = tailRun(inputs, split.tail, options);
    inputs.forEach((doc, at) => tailOutputs.set(doc, deepFrozen(outputs[at]!)));
    for (const [offset, doc] of chunk.entries()) {
      const kept = keptByValues.get(runKeys[start + offset]!)!;
      yield setField(doc, as, split.tailIsDeterministic ? kept.map((keptDoc) => tailOutputs.get(keptDoc)!) : tailRun(kept, split.tail, options));
    }
  }
}

/**
 * The documents through a one-for-one tail, one output each. Frozen (stored) documents go in as they
 * are; any other (a view's, held by the run's collection cache) is copied first, as borrowed() does for
 * runPipeline's input: a tail stage may pass its parts through, and its outputs are frozen or written into.
 */
function tailRun(docs: readonly Document[], tail: Document[], options: Options): Document[] {
  if (docs.length === 0) return [];
  const owned = docs.map((doc) => unsharedValue(doc));
  return tail.length === 0 ? owned : (new Aggregator(tail, options).run(owned) as Document[]);
}

/**
 * One key for a parent's join values, from their valueKeys in order: parents whose values are the same
 * list share it (the same values in another order get another key, and their own run of the same result).
 */
function runKey(valueKeys: readonly string[]): string {
  return valueKeys.length === 1 ? valueKeys[0]! : valueKeys.join('\u0000');
}

/** The lists one after another (a loop: V8's generic `flat` is several times slower, and a lookup calls this per chunk of parents). */
function concatenated<T>(lists: Iterable<readonly T[]>): T[] {
  const all: T[] = [];
  for (const list of lists) for (const item of list) all.push(item);
  return all;
}

/** The positions `positionsOf` gives for any of `items`, each once, ascending (sorted only when they come out of order). */
function positionsOfAll<T>(items: readonly T[], positionsOf: (item: T) => readonly number[]): number[] {
  const positions: number[] = [];
  let ascending = true;
  for (const item of items) {
    for (const position of positionsOf(item)) {
      if (positions.length > 0 && position <= positions[positions.length - 1]!) ascending = false;
      positions.push(position);
    }
  }
  if (ascending) return positions;
  positions.sort((a, b) => a - b);
  let kept = 0;
  for (const position of positions) if (kept === 0 || positions[kept - 1] !== position) positions[kept++] = position;
  positions.length = kept;
  return positions;
}

/** Parents whose lookups run together: few enough that a later `$limit` wastes little, many enough that a deterministic tail runs seldom. */
const LOOKUP_CHUNK = 64;

/** Whether a `$lookup`'s `let` binds any variable (its pipeline may then read each parent's values). */
function hasVariables(bindings: unknown): boolean {
  return isPlainDocument(bindings) && Object.keys(bindings).length > 0;
}

/** The foreign documents that may match `filter`: through the run's indexed lookup, else the whole collection. */
function foreignDocuments(options: Partial<Options>, from: string, filter: Document): readonly Document[] {
  const resolver = options.collectionResolver;
  if (!resolver) return [];
  const indexed = INDEXED_LOOKUPS.get(resolver)?.(from, filter);
  return indexed === undefined ? resolver(from) : [...indexed];
}

/** `values` without repeats, by their valueKeys (`keys`, in the same order). */
function distinctValues(values: readonly unknown[], keys: readonly string[]): unknown[] {
  const byKey = new Map<string, unknown>();
  values.forEach((value, at) => byKey.set(keys[at]!, value));
  return [...byKey.values()];
}

/** How a `$lookup` joins by equality: the values each parent joins by, and what decides its foreign documents. */
interface EqualityJoin {
  readonly foreign: string;
  /** The values a parent joins by: its candidates are the foreign documents with one of them at `foreign` (equalityKeys). */
  readonly valuesOf: (doc: Document) => unknown[];
  /** Its join filter (foreignJoinFilter) decides among the candidates; else the lookup's pipeline does. */
  readonly decidedByFilter: boolean;
}

/** localField/foreignField: MongoDB's join (equality-join.ts). */
function conciseJoin(localField: string, foreignField: string): EqualityJoin {
  const localParts = localField.split('.');
  return { foreign: foreignField, valuesOf: (doc) => localJoinValues(doc, localParts), decidedByFilter: true };
}

/**
 * The join of a `let`/`pipeline` lookup correlated by equality: its first stage is
 * `{ $match: { $expr: E } }` where E, or one term of an `$and` E, is `{ $eq: ['$foreignPath', '$$v'] }`
 * (either order) and `let.v` is `'$localField'`, a top-level field, whose value (whole, or any
 * element) finds the candidates. Undefined for any other lookup.
 */
function correlatedEquality(spec: LookupSpec): EqualityJoin | undefined {
  if (!Array.isArray(spec.pipeline) || !isPlainDocument(spec.let)) return undefined;
  const first: unknown = spec.pipeline[0];
  if (!isPlainDocument(first) || Object.keys(first).length !== 1 || !isPlainDocument(first.$match)) return undefined;
  const match = first.$match;
  if (Object.keys(match).length !== 1 || !isPlainDocument(match.$expr)) return undefined;
  const expression = match.$expr;
  const terms: unknown[] = Object.keys(expression).length === 1 && Array.isArray(expression.$and) ? expression.$and : [expression];
  const bindings = spec.let;
  for (const term of terms) {
    if (!isPlainDocument(term) || Object.keys(term).length !== 1 || !Array.isArray(term.$eq) || term.$eq.length !== 2) continue;
    const [left, right] = term.$eq as unknown[];
    const pair = fieldAndVariable(left, right) ?? fieldAndVariable(right, left);
    const bound = pair && bindings[pair.variable];
    // A top-level local field only: an aggregation path through an array (`$lines.sku`) yields values a
    // query path does not find (`[]` for `lines: []`), so the candidates might miss a match.
    if (pair && typeof bound === 'string' && isFieldPath(bound) && !bound.includes('.')) {
      const localParts = [bound.slice(1)];
      return { foreign: pair.field, valuesOf: (doc) => equalityKeys(doc, localParts), decidedByFilter: false };
    }
  }
  return undefined;
}

function fieldAndVariable(field: unknown, variable: unknown): { field: string; variable: string } | undefined {
  if (typeof field !== 'string' || !isFieldPath(field)) return undefined;
  if (typeof variable !== 'string' || !/^\$\$[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) return undefined;
  return { field: field.slice(1), variable: variable.slice(2) };
}

/** `$a.b`: a field path (not a variable, not an operator expression). */
function isFieldPath(value: string): boolean {
  return /^\$[^$]/.test(value);
}

/**
 * MongoDB docs: "$unionWith" — `"coll"` or `{ coll, pipeline }`: the input documents, then the
 * results of the pipeline over `coll` (a collection of the same database; a missing one adds
 * nothing). The branch runs only once the input is exhausted, through the run's `unionWith`.
 */
const $unionWith: StageOperator = (coll, expr, options) => {
  const spec = unionWithSpec(expr);
  const resolver = options.collectionResolver;
  const branch = resolver === undefined ? undefined : UNION_BRANCHES.get(resolver);
  if (branch === undefined) throw badValue('$unionWith is not available here');
  return concat(coll, Lazy(unionBranchDocuments(() => branch(spec.coll, spec.pipeline))));
};

function* unionBranchDocuments(run: () => Iterable<Document>): Iterable<Document> {
  yield* run();
}

function unionWithSpec(expr: unknown): { coll: string; pipeline: Document[] } {
  if (typeof expr === 'string') return { coll: expr, pipeline: [] };
  if (!isPlainDocument(expr)) {
    throw new CommandError(9, 'FailedToParse', 'the $unionWith stage specification must be an object or string');
  }
  for (const key of Object.keys(expr)) {
    if (key !== 'coll' && key !== 'pipeline') throw new CommandError(40415, 'Location40415', `BSON field '$unionWith.${key}' is an unknown field.`);
  }
  if (typeof expr.coll !== 'string' || expr.coll === '') {
    throw new CommandError(9, 'FailedToParse', '$unionWith stage without explicit collection must have a pipeline with $documents as first stage');
  }
  const pipeline: unknown = expr.pipeline ?? [];
  if (!Array.isArray(pipeline)) throw new CommandError(14, 'TypeMismatch', "$unionWith 'pipeline' must be an array");
  return { coll: expr.coll, pipeline: pipeline as Document[] };
}

/**
 * Each parent's foreign positions, distinct and ascending: foreign documents hashed by the valueKey of
 * their equalityKeys, then one hash lookup per parent value (`keysOf`: each parent's values' valueKeys).
 */
function hashedPositions(foreign: readonly Document[], foreignParts: readonly string[], keysOf: readonly (readonly string[])[]): (index: number) => readonly number[] {
  const byKey = new Map<string, number[]>();
  foreign.forEach((doc, position) => {
    checkTimeLimit();
    const keys = equalityKeys(doc, foreignParts).map(valueKey);
    for (const key of keys.length === 1 ? keys : new Set(keys)) {
      const positions = byKey.get(key);
      if (positions) positions.push(position);
      else byKey.set(key, [position]);
    }
  });
  const positionsOfKey = (key: string): readonly number[] => byKey.get(key) ?? [];
  // One key's positions are distinct and ascending already.
  return (index) => {
    const keys = keysOf[index]!;
    return keys.length === 1 ? positionsOfKey(keys[0]!) : positionsOfAll(keys, positionsOfKey);
  };
}

/**
 * Each parent's foreign positions under a collation, distinct and ascending: foreign equalityKeys
 * sorted by it, each of the parent's values (`valuesOf`) found by binary search.
 */
function collatedPositions(foreign: readonly Document[], foreignParts: readonly string[], compare: ValueComparator, valuesOf: readonly (readonly unknown[])[]): (index: number) => readonly number[] {
  const entries: { value: unknown; position: number }[] = [];
  foreign.forEach((doc, position) => {
    for (const value of equalityKeys(doc, foreignParts)) entries.push({ value, position });
  });
  entries.sort((a, b) => compare(a.value, b.value) || a.position - b.position);
  const positionsOfValue = (value: unknown): number[] => {
    let low = 0;
    let high = entries.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (compare(entries[middle]!.value, value) < 0) low = middle + 1;
      else high = middle;
    }
    const positions: number[] = [];
    for (let at = low; at < entries.length && compare(entries[at]!.value, value) === 0; at++) positions.push(entries[at]!.position);
    return positions;
  };
  // A document may be found by two of its keys that the collation finds equal: positionsOfAll keeps one of each.
  return (index) => positionsOfAll(valuesOf[index]!, positionsOfValue);
}

function setField(doc: Document, path: string, value: unknown): Document {
  const copy: Document = { ...doc };
  const parts = path.split('.');
  let target: Document = copy;
  for (const part of parts.slice(0, -1)) {
    const next: unknown = target[part];
    const child: Document = isPlainDocument(next) ? { ...next } : {};
    target[part] = child;
    target = child;
  }
  target[parts[parts.length - 1] as string] = value;
  return copy;
}

function badValue(message: string): CommandError {
  return new CommandError(ErrorCodes.BadValue, 'BadValue', message);
}

const mingoStages = mingoPipeline as unknown as Record<string, StageOperator>;

/** A mingo stage that may write into its input documents: it gets thawed (owned) copies. */
function onOwnedCopies(stage: StageOperator): StageOperator {
  return (coll, expr, options) => stage(coll.map((doc) => thawDocument(doc as Document)), expr, options);
}

/** mingo stages that never write into their input documents. */
const READ_ONLY_MINGO_STAGES = new Set(['$limit', '$skip', '$replaceRoot', '$replaceWith']);

/**
 * Plain field inclusions/exclusions, and top-level computed fields next to inclusions, are ours (no
 * copying); anything else is mingo's, on copies, put in MongoDB's field order.
 */
const $project: StageOperator = (coll, expr, options) => {
  // One copy of the options for the stage, its root set per document, so `$$NOW` is read once as mingo's own $project reads it.
  const scoped = withLocals(options, {}) as Options & { update(locals: Record<string, unknown>): Options };
  const byMingo = (doc: Document, expression: unknown): unknown => evalExpr(doc, expression, scoped.update({ root: doc }));
  const project = isPlainDocument(expr) ? compileFieldProjection(expr, (expression) => compiledOr(expression, byMingo)) : undefined;
  if (project !== undefined) return coll.map((doc) => project(doc as Document));
  const specKeys = isPlainDocument(expr) ? Object.keys(expr) : [];
  const included = specKeys.filter((key) => isInclusion((expr as Document)[key]));
  // A computed field lands at its top-level name ('a.b' computes into a).
  const computed = [...new Set(specKeys.filter((key) => !included.includes(key)).map((key) => key.split('.')[0]!))];
  const sources: Document[] = [];
  const projected = onOwnedCopies(mingoStages.$project as StageOperator)(
    coll.map((doc) => {
      sources.push(doc as Document);
      return doc;
    }),
    expr,
    options,
  );
  return projected.map((doc) => inProjectionOrder(doc as Document, sources.shift() ?? {}, included, computed));
};

/** MongoDB's `$unset` (document_source_project.cpp): an exclusion `$project` of its field paths, refused as MongoDB refuses it. */
const $unset: StageOperator = (coll, expr, options) => {
  if (typeof expr !== 'string' && !Array.isArray(expr)) throw stageError(31002, '$unset specification must be a string or an array');
  const fields: unknown[] = typeof expr === 'string' ? [expr] : expr;
  if (fields.length === 0) throw stageError(31119, '$unset specification must be a string or an array with at least one field');
  if (!fields.every((field) => typeof field === 'string')) throw stageError(31120, '$unset specification must be a string or an array containing only string values');
  // MongoDB parses the fields one at a time: a field's own path first, then where it meets an earlier one.
  const claim = pathClaims();
  for (const field of fields as string[]) {
    checkFieldPath(field);
    claim(field);
  }
  return $project(coll, Object.fromEntries((fields as string[]).map((field) => [field, 0])), options);
};

/** MongoDB's FieldPath checks, in its order and with its codes. */
function checkFieldPath(path: string): void {
  if (path === '') throw stageError(40352, 'Invalid $unset :: caused by :: FieldPath cannot be constructed with empty string');
  if (path.endsWith('.')) throw stageError(40353, "Invalid $unset :: caused by :: FieldPath must not end with a '.'.");
  for (const part of path.split('.')) {
    if (part === '') throw stageError(15998, 'Invalid $unset :: caused by :: FieldPath field names may not be empty strings.');
    if (part.startsWith('$')) throw stageError(16410, "Invalid $unset :: caused by :: FieldPath field names may not start with '$'. Consider using $getField or $setField.");
  }
}

function isInclusion(value: unknown): boolean {
  return value === true || (typeof value === 'number' && value !== 0);
}

/**
 * MongoDB's order for an inclusion `$project` with computed fields: `_id` first, then the included
 * fields in the order of the input document, then the computed ones in the order of the spec (mingo
 * puts `_id` last, and its own order for the rest).
 */
function inProjectionOrder(doc: Document, source: Document, included: readonly string[], computed: readonly string[]): Document {
  const fromSource = Object.keys(source).filter((key) => key !== '_id' && included.includes(key) && key in doc);
  const out: Document = {};
  if ('_id' in doc) out._id = doc._id;
  for (const key of fromSource) out[key] = doc[key];
  for (const key of computed) if (!(key in out) && key in doc) out[key] = doc[key];
  for (const key of Object.keys(doc)) if (!(key in out)) out[key] = doc[key];
  return out;
}

/**
 * MongoDB's `$unwind`: a document for each element of a non-empty array at the path; a value that is
 * no array, but neither missing nor null, as a one-element array (mingo drops `{}` and `''` too);
 * missing, null and `[]` dropped unless preserved (`[]` then without its field). The path does not
 * descend into arrays. Input documents are never written into: an unwound one is a copy along the path
 * that shares the rest only when it is stored (frozen), or is the last one made of it (the input is then
 * no one else's).
 */
const $unwind: StageOperator = (coll, expr) => {
  const { parts, index, preserve } = unwindSpec(expr);
  const indexed = (doc: Document, at: number | null): Document => (index === undefined ? doc : withNestedField(doc, index, at));
  function* unwound(): Generator<Document> {
    for (let next = coll.next(); !next.done; next = coll.next()) {
      const doc = next.value as Document;
      const value = nestedField(doc, parts);
      if (Array.isArray(value) && value.length > 0) {
        // A document an earlier stage built may be written into in place later (thawDocument): each unwound one gets its own fields.
        const ownFields = (at: number): Document => (at === value.length - 1 || Object.isFrozen(doc) ? doc : copyBesidePath(doc, parts));
        for (let at = 0; at < value.length; at++) yield indexed(withNestedField(ownFields(at), parts, value[at]), at);
      } else if (value !== undefined && value !== null && !Array.isArray(value)) yield indexed(doc, null);
      else if (preserve) yield indexed(Array.isArray(value) ? withNestedField(doc, parts, undefined) : doc, null);
    }
  }
  return Lazy(unwound());
};

/** `$unwind`'s operand, checked as MongoDB checks it (document_source_unwind.cpp's codes). */
function unwindSpec(expr: unknown): { parts: readonly string[]; index: readonly string[] | undefined; preserve: boolean } {
  if (typeof expr !== 'string' && !isPlainDocument(expr)) throw stageError(15981, 'expected either a string or an object as specification for $unwind stage');
  const spec: Document = typeof expr === 'string' ? { path: expr } : expr;
  for (const option of Object.keys(spec)) {
    if (option !== 'path' && option !== 'includeArrayIndex' && option !== 'preserveNullAndEmptyArrays') throw stageError(28811, `unrecognized option to $unwind stage: ${option}`);
  }
  const { path, includeArrayIndex, preserveNullAndEmptyArrays } = spec;
  if (path === undefined) throw stageError(28812, 'no path specified to $unwind stage');
  if (typeof path !== 'string') throw stageError(28808, 'expected a string as the path for $unwind stage');
  if (!path.startsWith('$')) throw stageError(28818, `path option to $unwind stage should be prefixed with a '$': ${path}`);
  if (preserveNullAndEmptyArrays !== undefined && typeof preserveNullAndEmptyArrays !== 'boolean') throw stageError(28809, 'expected a boolean for the preserveNullAndEmptyArrays option to $unwind stage');
  if (includeArrayIndex !== undefined && (typeof includeArrayIndex !== 'string' || includeArrayIndex === '')) throw stageError(28810, 'expected a non-empty string for the includeArrayIndex option to $unwind stage');
  if (typeof includeArrayIndex === 'string' && includeArrayIndex.startsWith('$')) throw stageError(28822, `includeArrayIndex option to $unwind stage should not be prefixed with a '$': ${includeArrayIndex}`);
  return { parts: path.slice(1).split('.'), index: includeArrayIndex?.split('.'), preserve: preserveNullAndEmptyArrays === true };
}

/** A stage's refusal under MongoDB's own number (`Location<code>`). */
function stageError(code: number, message: string): CommandError {
  return new CommandError(code, `Location${code}`, message);
}

/** The value at `parts`, through embedded documents' own fields only (an array on the way reaches nothing). */
function nestedField(doc: Document, parts: readonly string[]): unknown {
  let value: unknown = doc;
  for (const part of parts) {
    if (!isPlainDocument(value) || !Object.prototype.hasOwnProperty.call(value, part)) return undefined;
    value = value[part];
  }
  return value;
}

/** `doc` with its own copy of every value but the one at `parts`, which the caller replaces (unsharedValue). */
function copyBesidePath(doc: Document, parts: readonly string[]): Document {
  const copy: Document = {};
  for (const key of Object.keys(doc)) {
    const value: unknown = doc[key];
    const own = key !== parts[0] ? unsharedValue(value) : parts.length > 1 && isPlainDocument(value) ? copyBesidePath(value, parts.slice(1)) : value;
    if (key === '__proto__') Object.defineProperty(copy, key, { value: own, enumerable: true, writable: true, configurable: true });
    else copy[key] = own;
  }
  return copy;
}

/** A copy of `doc` along `parts` with `value` at their end (its field removed for undefined); a value on the way that is no document is replaced. */
function withNestedField(doc: Document, parts: readonly string[], value: unknown): Document {
  const [head, ...rest] = parts as [string, ...string[]];
  const below = Object.prototype.hasOwnProperty.call(doc, head) && isPlainDocument(doc[head]) ? (doc[head] as Document) : {};
  const inner = rest.length === 0 ? value : withNestedField(below, rest, value);
  if (inner !== undefined) return { ...doc, [head]: inner };
  const { [head]: _removed, ...others } = doc;
  return others;
}

/** Hidden fields that carry our partition key and sort rank through mingo's `$setWindowFields`. */
const WINDOW_PARTITION = '__docjoinWindowPartition';
const WINDOW_RANK = '__docjoinWindowRank';

/** Window operators that read sortBy values themselves (not only the order), so they keep the real sortBy. */
const SORT_VALUE_WINDOW_OPERATORS = new Set(['$derivative', '$integral', '$linearFill']);

/**
 * mingo's `$setWindowFields` sorts and partitions with its own comparator and hashing (Long(1) ≠ 1,
 * Decimal128 by string). So we sort each document once in MongoDB's order (partition value, then
 * sortBy, stably, under the operation's collation) and hand mingo a dense rank and a partition
 * number instead (equal partition values, under the collation too, share one): equal sortBy values
 * share a rank, so `$rank`/`$denseRank` see the same ties MongoDB does. Range windows and operators
 * that read sortBy values keep the real sortBy (numbers and dates, which mingo handles).
 */
const $setWindowFields: StageOperator = (coll, expr, options) => {
  const mingoStage = onOwnedCopies(mingoStages.$setWindowFields as StageOperator);
  if (!isPlainDocument(expr) || !isPlainDocument(expr.output)) return mingoStage(coll, expr, options);
  const spec = expr;
  const readsSortValues = Object.values(spec.output as Document).some(
    (output) => isPlainDocument(output) && (Object.keys(output).some((key) => SORT_VALUE_WINDOW_OPERATORS.has(key)) || (isPlainDocument(output.window) && output.window.range !== undefined)),
  );
  const sortBy = isPlainDocument(spec.sortBy) ? spec.sortBy : undefined;
  const collation = collationOf(options);
  const compiled = compileSort(sortBy ?? {}, collation);
  const comparePartitions = valueComparator(collation);
  const ranked = coll.transform((items) => {
    const entries = (items as Document[]).map((doc, index) => {
      const owned = thawDocument(doc);
      const partition = spec.partitionBy === undefined ? null : evalExpr(owned, spec.partitionBy, withLocals(options, { root: owned }));
      return { doc: owned, partition: partition === undefined ? null : partition, key: compiled.keyOf(owned), index };
    });
    entries.sort((a, b) => comparePartitions(a.partition, b.partition) || compiled.compare(a.key, b.key) || a.index - b.index);
    let rank = 0;
    // partitions are numbered in sorted order, so values equal under the collation share one
    let partition = 0;
    entries.forEach((entry, position) => {
      const previous = entries[position - 1];
      const newPartition = previous !== undefined && comparePartitions(previous.partition, entry.partition) !== 0;
      if (newPartition) partition += 1;
      if (newPartition || (previous !== undefined && compiled.compare(previous.key, entry.key) !== 0)) rank += 1;
      entry.doc[WINDOW_PARTITION] = partition;
      entry.doc[WINDOW_RANK] = rank;
    });
    return Lazy(entries.map((entry) => entry.doc));
  });
  const rewritten = {
    ...spec,
    partitionBy: `$${WINDOW_PARTITION}`,
    sortBy: readsSortValues ? sortBy : sortBy === undefined ? undefined : { [WINDOW_RANK]: 1 },
  };
  if (rewritten.sortBy === undefined) delete rewritten.sortBy;
  return (mingoStages.$setWindowFields as StageOperator)(ranked, rewritten, options).map((doc) => {
    const out = doc as Document;
    delete out[WINDOW_PARTITION];
    delete out[WINDOW_RANK];
    return out;
  });
};

const PIPELINE_OPERATORS: Record<string, StageOperator> = {
  ...Object.fromEntries(
    Object.entries(mingoStages).map(([name, stage]) => [name, READ_ONLY_MINGO_STAGES.has(name) ? stage : onOwnedCopies(stage)]),
  ),
  $project,
  $unset,
  $unwind,
  $count,
  $sample,
  $match,
  $sort,
  $group,
  $sortByCount,
  $lookup,
  $unionWith,
  $setWindowFields,
  $out: outputStageNotAllowed('$out'),
  $merge: outputStageNotAllowed('$merge'),
};

/**
 * Every stage checks the command's time limit for each document it takes and each it passes on (in
 * nested pipelines too): a stage that drops most of its input, or makes many documents of one, is
 * stopped as soon as one that sorts or groups.
 */
function timeLimited(stage: StageOperator): StageOperator {
  const checked = (doc: unknown) => {
    checkTimeLimit();
    return doc;
  };
  return (coll, expr, options) => stage(coll.map(checked), expr, options).map(checked);
}

/** Where a stage's spec holds aggregation expressions: the whole spec, or these of its fields. */
const EXPRESSIONS_IN_SPEC: Readonly<Record<string, true | readonly string[]>> = {
  $project: true,
  $addFields: true,
  $set: true,
  $group: true,
  $sortByCount: true,
  $replaceWith: true,
  $redact: true,
  $replaceRoot: ['newRoot'],
  $bucket: ['groupBy', 'output'],
  $bucketAuto: ['groupBy', 'output'],
  $fill: ['partitionBy', 'output'],
  $setWindowFields: ['partitionBy', 'output'],
  $graphLookup: ['startWith'],
  $lookup: ['let'],
};

/** A stage that reads its spec's field paths as MongoDB does (field-path.ts). */
function withMongoFieldPathsIn(name: string, stage: StageOperator): StageOperator {
  const where = EXPRESSIONS_IN_SPEC[name];
  if (where === undefined) return stage;
  if (where === true) return (coll, expr, options) => stage(coll, withMongoFieldPaths(expr), options);
  return (coll, expr, options) => {
    if (!isPlainDocument(expr)) return stage(coll, expr, options);
    const rewritten: Document = { ...expr };
    for (const field of where) if (field in rewritten) rewritten[field] = withMongoFieldPaths(rewritten[field]);
    return stage(coll, rewritten, options);
  };
}

const PIPELINE_CONTEXT = createContext(
  Object.fromEntries(Object.entries(PIPELINE_OPERATORS).map(([name, stage]) => [name, timeLimited(withMongoFieldPathsIn(name, stage))])),
);
