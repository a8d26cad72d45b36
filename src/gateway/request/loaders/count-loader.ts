import DataLoader from 'dataloader';
import { isInOperand, keyString } from '../../documents/key-string';
import type { AggregateBatcher } from './aggregate-batcher';
import type { CountSpec } from '../../operation/planning/batch-specs';
import { eachParentKeyOnce } from '../../operation/planning/parent-keys';
export interface CountLoad {
  readonly parentKey: unknown;
  /** `Type.field` that asked (for attribution). */
  readonly field: string;
}

/**
 * Counts the children of many parents (a connection's `totalCount`, a counter counted by query) in ONE
 * aggregate: `$match {fk: {$in: keys}, …filter}`, each child's parent keys once (eachParentKeyOnce: a
 * child may hold several, in an array or through one, as MongoDB's equality matches them), unwound and
 * kept to the asked ones, then `$group` by key: one reply document per parent that has children; a
 * parent missing from the reply has none. It goes through the collection's batcher, so the level's
 * pages and `@aggregate` figures of the same children go out with it as one command.
 */
export class CountLoader {
  readonly #loader: DataLoader<CountLoad, number, string>;

  constructor(
    private readonly batcher: AggregateBatcher,
    readonly spec: CountSpec,
  ) {
    // No promise cache: every load of a tick resolves with that tick's batch (estimate/README.md).
    this.#loader = new DataLoader((loads) => this.#batch(loads), { cache: false });
  }

  load(load: CountLoad): Promise<number> {
    return this.#loader.load(load);
  }

  async #batch(loads: readonly CountLoad[]): Promise<number[]> {
    const { foreignField, filter } = this.spec;
    const keys = new Map<string, unknown>();
    for (const load of loads) keys.set(keyString(load.parentKey), load.parentKey);
    // A parent key shaped like an operator (`{ $gt: "" }`) has no children, as in a join: `$in` would refuse it.
    const matchable = [...keys.values()].filter(isInOperand);
    const inKeys = { $in: matchable };
    const keyMatch = { [foreignField]: inKeys };
    const match = { $match: filter ? { $and: [keyMatch, filter] } : keyMatch };
    const pipeline = [match, { $project: { _id: 0, key: eachParentKeyOnce(foreignField) } }, { $unwind: '$key' }, { $match: { key: inKeys } }, { $group: { _id: '$key', count: { $sum: 1 } } }];
    const fields = [...new Set(loads.map((load) => load.field))];
    const counts = matchable.length === 0 ? [] : await this.batcher.submit(pipeline, fields, matchable.length);
    const byParent = new Map(counts.map((row) => [keyString(row._id), Number(row.count)]));
    return loads.map((load) => byParent.get(keyString(load.parentKey)) ?? 0);
  }
}
