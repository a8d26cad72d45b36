import DataLoader from 'dataloader';
import type { FieldCostRecorder } from '../cost/cost-ledger';
import type { AggregateBatcher } from './aggregate-batcher';
import { isInOperand, keysHeldAt, keyString, parentKeysOf } from '../../documents/key-string';
import { readPath } from '../../documents/read-path';
import { filterAndSort } from '../../operation/planning/in-memory-list';
import type { SortKey } from '../../startup/storage-map/storage-map-types';
import type { MongoFunnel, RequestScope } from '../mongo/mongo-funnel';
import type { StoredDocument } from '../../documents/stored-document';
import { mergeProjections, projectionOf, projectStages, type Projection } from '../../operation/planning/projection';
import { settleLookups } from './projected-read';
import { sortDocument } from '../../startup/storage-map/parse-sort';
import { UNBOUNDED_REVERSE_JOIN_BATCH, type ReverseJoinSpec } from '../../operation/planning/batch-specs';

export interface ReferenceLoad {
  readonly parentKey: unknown;
  readonly projection: Projection;
  readonly field: string;
  readonly cost?: FieldCostRecorder;
}

/**
 * Loads the children of many parents in ONE aggregate on the child collection, whose reply holds
 * exactly the child documents, each parent's in `sort` order:
 * - with a per-parent limit n, one branch per parent key:
 *   `$match {fk: k0} → $sort → $limit n → $project`, then `$unionWith {coll, pipeline: [the same for k1]}`
 *   per further key, so each parent's page is an indexed, limited query (with an index on `{fk, …sort}`,
 *   `_id` tie-breaker included, the server reads at most n children per parent), instead of one sort
 *   and `$group $topN` over every child of every parent to keep n;
 * - without one (every child): `$match {fk: {$in: keys}} → $sort → $project → $group {_id: "$fk",
 *   docs: {$push: "$$ROOT"}} → $unwind → $replaceRoot`.
 * The reply is regrouped by parent key here, so the order of the branches in it does not matter
 * (MongoDB does not specify it); within a parent, documents keep the order its branch sorted them in.
 */
export class ReverseJoinLoader {
  readonly #loader: DataLoader<ReferenceLoad, StoredDocument[], string>;

  constructor(
    private readonly funnel: MongoFunnel,
    private readonly request: RequestScope,
    readonly spec: ReverseJoinSpec,
    /** Combines this loader's bounded aggregates with those of other loaders of the collection. */
    private readonly batcher: AggregateBatcher,
  ) {
    // No promise cache: a parent's children loaded again in a later tick are read again with that tick's
    // batch, so that every load of a tick resolves at one time (estimate/README.md).
    this.#loader = new DataLoader((loads) => this.#batch(loads), { cache: false });
  }

  load(load: ReferenceLoad): Promise<StoredDocument[]> {
    return this.#loader.load(load);
  }

  async #batch(loads: readonly ReferenceLoad[]): Promise<StoredDocument[][]> {
    const { collection, foreignField, sort, perParent } = this.spec;
    // A parent holding an array of keys has the children of each, as MongoDB's $lookup matches it.
    const keysOfParents = loads.map((load) => parentKeysOf(load.parentKey));
    const keys = new Map<string, unknown>();
    for (const parentKeysOfLoad of keysOfParents) for (const key of parentKeysOfLoad) keys.set(keyString(key), key);
    const projection = mergeProjections([
      ...loads.map((load) => load.projection),
      projectionOf([[foreignField, 1], ...sort.map((key) => [key.path, 1] as const)]),
    ]);
    // A parent key shaped like an operator (`{ $gt: "" }`) has no children, as in a join by key: it is not sent.
    const matchable = [...keys.values()].filter(isInOperand);
    const fields = [...new Set(loads.map((load) => load.field))];
    const documents =
      matchable.length === 0
        ? []
        : perParent === undefined
          ? await this.funnel.aggregate({ ...this.request, fields }, collection, this.#everyChildPipeline(matchable, projection), { batchSize: UNBOUNDED_REVERSE_JOIN_BATCH })
          : await this.batcher.submit(this.#perParentPipeline(matchable, perParent, projection), fields, matchable.length * perParent);
    settleLookups(this.request, documents, projection);
    const byParent = childrenByParent(documents, foreignField, sort, perParent);
    // A child was read once for a field, however many of its loads asked for it: parents of one key, or
    // holding arrays of keys that share some.
    const counted = new Map<string, Set<StoredDocument>>();
    return loads.map((load, index) => {
      const children = childrenOfParent(byParent, keysOfParents[index]!, sort, perParent);
      load.cost?.delivered(children.length);
      let readForField = counted.get(load.field);
      if (!readForField) counted.set(load.field, (readForField = new Set()));
      const before = readForField.size;
      for (const child of children) readForField.add(child);
      load.cost?.documents(readForField.size - before);
      return children;
    });
  }

  #match(keyMatch: StoredDocument): StoredDocument {
    const { pageFilter } = this.spec;
    return pageFilter ? { $and: [keyMatch, pageFilter] } : keyMatch;
  }

  /** The first key's branch leads; each further key is a `$unionWith` branch on the same collection. */
  #perParentPipeline(keys: readonly unknown[], perParent: number, projection: Projection): StoredDocument[] {
    const { collection, foreignField, sort } = this.spec;
    const branch = (key: unknown): StoredDocument[] => [
      { $match: this.#match({ [foreignField]: key }) },
      { $sort: sortDocument(sort) },
      { $limit: perParent },
      ...projectStages(projection),
    ];
    const [first, ...rest] = keys;
    return [...branch(first), ...rest.map((key) => ({ $unionWith: { coll: collection, pipeline: branch(key) } }))];
  }

  #everyChildPipeline(keys: readonly unknown[], projection: Projection): StoredDocument[] {
    const { foreignField, sort } = this.spec;
    return [
      { $match: this.#match({ [foreignField]: { $in: keys } }) },
      { $sort: sortDocument(sort) },
      ...projectStages(projection),
      { $group: { _id: `$${foreignField}`, docs: { $push: '$$ROOT' } } },
      { $unwind: '$docs' },
      { $replaceRoot: { newRoot: '$docs' } },
    ];
  }
}

/**
 * A parent's children: those of its one key, or, for a parent holding several, those of each, once
 * each, in the join's order and cut to its page (each key's branch brought that key's page).
 */
function childrenOfParent(byParent: ReadonlyMap<string, StoredDocument[]>, keys: readonly unknown[], sort: readonly SortKey[], perParent: number | undefined): StoredDocument[] {
  if (keys.length === 1) return byParent.get(keyString(keys[0])) ?? [];
  const once = new Map(keys.flatMap((key) => byParent.get(keyString(key)) ?? []).map((child) => [keyString(child._id), child]));
  const ordered = filterAndSort([...once.values()], [], sort);
  return perParent === undefined ? ordered : ordered.slice(0, perParent);
}

/**
 * The children by the parent key each holds at `foreignField`, in the reply's order. A child holding
 * several (an array there, which MongoDB's equality matches by each element) is a child of each: a
 * per-parent read may bring it in another parent's branch, or in several, so those parents' children
 * are put back in the join's order, once each, and cut to the page (their own branch brought their
 * page; the order is total, `_id` last).
 */
function childrenByParent(documents: readonly StoredDocument[], foreignField: string, sort: readonly SortKey[], perParent: number | undefined): Map<string, StoredDocument[]> {
  const byParent = new Map<string, StoredDocument[]>();
  const shared = new Set<string>();
  const add = (key: string, child: StoredDocument) => {
    const children = byParent.get(key);
    if (children) children.push(child);
    else byParent.set(key, [child]);
  };
  for (const child of documents) {
    const value = readPath(child, foreignField);
    if (!Array.isArray(value)) {
      add(keyString(value), child);
      continue;
    }
    for (const key of new Set(keysHeldAt(child, foreignField).map(keyString))) {
      add(key, child);
      shared.add(key);
    }
  }
  for (const key of shared) {
    const once = [...new Map(byParent.get(key)!.map((child) => [keyString(child._id), child])).values()];
    const ordered = filterAndSort(once, [], sort);
    byParent.set(key, perParent === undefined ? ordered : ordered.slice(0, perParent));
  }
  return byParent;
}
