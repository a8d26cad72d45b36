import DataLoader from 'dataloader';
import { isInOperand, keyString, parentKeysOf } from '../../documents/key-string';
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
 * parent missing from the reply has none. A parent holding several keys (an array) counts the children
 * of any, in a `$count` of its own. Each goes through the collection's batcher, so the level's pages and
 * `@aggregate` figures of the same children go out with them as one command.
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
    const single = new Map<string, unknown>();
    const several = new Map<string, readonly unknown[]>();
    for (const { parentKey } of loads) {
      // A parent holding an array of keys has the children of each, as its list does: they are counted once each, apart.
      if (Array.isArray(parentKey)) several.set(keyString(parentKey), parentKeysOf(parentKey).filter(isInOperand));
      else if (isInOperand(parentKey)) single.set(keyString(parentKey), parentKey);
    }
    const fields = [...new Set(loads.map((load) => load.field))];
    const [byKey, ...unions] = await Promise.all([this.#countsByKey([...single.values()], fields), ...[...several.values()].map((keys) => this.#countOfAny(keys, fields))]);
    const byParent = new Map([...byKey, ...[...several.keys()].map((key, index) => [key, unions[index]!] as const)]);
    return loads.map((load) => byParent.get(keyString(load.parentKey)) ?? 0);
  }

  #keyMatch(keyMatch: Record<string, unknown>): { $match: Record<string, unknown> } {
    const { filter } = this.spec;
    return { $match: filter ? { $and: [keyMatch, filter] } : keyMatch };
  }

  /** The children of each key (a parent key shaped like an operator, `{ $gt: "" }`, has none: `$in` would refuse it). */
  async #countsByKey(keys: readonly unknown[], fields: readonly string[]): Promise<Map<string, number>> {
    if (keys.length === 0) return new Map();
    const { foreignField } = this.spec;
    const inKeys = { $in: keys };
    const pipeline = [this.#keyMatch({ [foreignField]: inKeys }), { $project: { _id: 0, key: eachParentKeyOnce(foreignField) } }, { $unwind: '$key' }, { $match: { key: inKeys } }, { $group: { _id: '$key', count: { $sum: 1 } } }];
    const counts = await this.batcher.submit(pipeline, fields, keys.length);
    return new Map(counts.map((row) => [keyString(row._id), Number(row.count)]));
  }

  /** The children holding any of `keys`, each once. */
  async #countOfAny(keys: readonly unknown[], fields: readonly string[]): Promise<number> {
    if (keys.length === 0) return 0;
    const [row] = await this.batcher.submit([this.#keyMatch({ [this.spec.foreignField]: { $in: keys } }), { $count: 'count' }], fields, 1);
    return row ? Number(row.count) : 0;
  }
}
