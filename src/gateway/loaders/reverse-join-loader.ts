import DataLoader from 'dataloader';
import type { CostLedger, FieldCostRecorder } from '../cost/cost-ledger';
import { keyString } from '../documents/key-string';
import { readPath } from '../documents/read-path';
import type { MongoFunnel, StoredDocument } from '../mongo/mongo-funnel';
import { mergeProjections, projectionOf, projectionSignature, toProjectStage, type Projection } from '../planning/projection';
import { sortDocument } from '../storage-map/parse-sort';
import type { SortKey } from '../storage-map/storage-map-types';

/** What every load of one reverse-join loader shares: the query except the parent keys. */
export interface ReverseJoinSpec {
  readonly collection: string;
  /** The children's path holding the parent's key (single-valued). */
  readonly foreignField: string;
  readonly sort: readonly SortKey[];
  /** Children per parent; undefined: all of them. */
  readonly perParent: number | undefined;
  /** Extra condition on children (a page: after a cursor, before a time); built from typed values only. */
  readonly pageFilter: StoredDocument | undefined;
  /** Identifies `pageFilter` in the registry key. */
  readonly pageSignature: string;
}

export interface ReferenceLoad {
  readonly parentKey: unknown;
  readonly projection: Projection;
  readonly field: string;
  readonly cost?: FieldCostRecorder;
}

export function reverseJoinSpecKey(spec: ReverseJoinSpec): string {
  const sort = spec.sort.map((key) => `${key.direction === 1 ? '' : '-'}${key.path}`).join(',');
  return `${spec.collection}|${spec.foreignField}|${sort}|${spec.perParent ?? '*'}|${spec.pageSignature}`;
}

/**
 * Loads the children of many parents in ONE aggregate:
 * `$match {fk: {$in: keys}} → $sort → $project → $group {_id: "$fk", docs: {$topN: {n, sortBy, output: "$$ROOT"}}}
 *  → $unwind → $replaceRoot`, so the reply holds exactly the child documents, newest (or first) per parent.
 */
export class ReverseJoinLoader {
  readonly #loader: DataLoader<ReferenceLoad, StoredDocument[], string>;

  constructor(
    private readonly funnel: MongoFunnel,
    private readonly ledger: CostLedger,
    readonly spec: ReverseJoinSpec,
  ) {
    this.#loader = new DataLoader((loads) => this.#batch(loads), {
      cacheKeyFn: (load) => `${keyString(load.parentKey)}|${projectionSignature(load.projection)}|${load.field}`,
    });
  }

  load(load: ReferenceLoad): Promise<StoredDocument[]> {
    return this.#loader.load(load);
  }

  async #batch(loads: readonly ReferenceLoad[]): Promise<StoredDocument[][]> {
    const { collection, foreignField, sort, perParent, pageFilter } = this.spec;
    const keys = new Map<string, unknown>();
    for (const load of loads) keys.set(keyString(load.parentKey), load.parentKey);
    const projection = mergeProjections([
      ...loads.map((load) => load.projection),
      projectionOf([[foreignField, 1], ...sort.map((key) => [key.path, 1] as const)]),
    ]);
    const keyMatch = { [foreignField]: { $in: [...keys.values()] } };
    const sortBy = sortDocument(sort);
    const pipeline: StoredDocument[] = [
      { $match: pageFilter ? { $and: [keyMatch, pageFilter] } : keyMatch },
      { $sort: sortBy },
      { $project: toProjectStage(projection) },
      {
        $group: {
          _id: `$${foreignField}`,
          docs: perParent === undefined ? { $push: '$$ROOT' } : { $topN: { n: perParent, sortBy, output: '$$ROOT' } },
        },
      },
      { $unwind: '$docs' },
      { $replaceRoot: { newRoot: '$docs' } },
    ];
    const fields = [...new Set(loads.map((load) => load.field))];
    const documents = await this.funnel.aggregate({ ledger: this.ledger, fields }, collection, pipeline, {
      batchSize: perParent === undefined ? 10_000 : keys.size * perParent,
    });
    const byParent = new Map<string, StoredDocument[]>();
    for (const document of documents) {
      const key = keyString(readPath(document, foreignField));
      const list = byParent.get(key);
      if (list) list.push(document);
      else byParent.set(key, [document]);
    }
    return loads.map((load) => {
      const children = byParent.get(keyString(load.parentKey)) ?? [];
      load.cost?.documents(children.length);
      return children;
    });
  }
}
