import type { FilterShape } from '../gateway';

/**
 * How a sharded cluster's router (mongos) would route docjoin's commands, from each collection's shard
 * key: to the one shard owning a key, to the few owning a list of keys, or to every shard (a broadcast,
 * which every shard must answer and the router merge). docjoin runs on one replica set or the embedded
 * server; this is what the same commands would cost on a cluster, read from their filters' shapes.
 * Follows MongoDB's "Targeted Operations vs. Broadcast Operations": an equality on every field of the
 * shard key goes to one shard; an equality or `$in` on its first field (a prefix of a compound key), or a
 * range there on a ranged key, to the shards holding those chunks; anything else to every shard. An
 * insert is routed by its document's key. A batch of per-key `$unionWith` branches (an `$or` in the
 * filter's shape) is targeted: each branch goes to the shard owning its key.
 */

/** The shard key of each sharded collection, as `sh.shardCollection` takes it: `{ "host.id": "hashed" }`, `{ postId: 1, _id: 1 }`. */
export type ShardKeys = Readonly<Record<string, Readonly<Record<string, 1 | -1 | 'hashed'>>>>;

export type Targeting =
  /** The collection is not sharded: its primary shard answers. */
  | 'unsharded'
  /** One shard: an equality on every field of the shard key, or an insert. */
  | 'one shard'
  /** The shards owning the listed keys, the key prefix or the range (`$in`, a compound key's first field, a range on a ranged key). */
  | 'targeted'
  /** Every shard. */
  | 'broadcast'
  /** No data read (a transaction's commit or abort), or a cursor's next batch (routed as its command was). */
  | 'not routed';

export interface RoutedCommand {
  readonly collection: string;
  readonly command: string;
  readonly filter?: FilterShape;
}

const UNROUTED: ReadonlySet<string> = new Set(['commitTransaction', 'abortTransaction', 'endSessions', 'getMore', 'killCursors']);

export function targetingOf(command: RoutedCommand, shardKeys: ShardKeys): Targeting {
  if (UNROUTED.has(command.command)) return 'not routed';
  const key = Object.hasOwn(shardKeys, command.collection) ? shardKeys[command.collection] : undefined;
  if (!key) return 'unsharded';
  if (command.command === 'insert') return 'one shard';
  if (command.filter === undefined || !isDocument(command.filter)) return 'broadcast';
  return filterTargeting(command.filter, Object.entries(key));
}

/** How one filter document selects on the shard key (`key`: its fields in order, each 1, -1 or "hashed"). */
function filterTargeting(filter: Readonly<Record<string, FilterShape>>, key: ReadonlyArray<readonly [string, 1 | -1 | 'hashed']>): Targeting {
  const found: Targeting[] = [];
  const [first, kind] = key[0]!;
  const fields = withFieldsOfAnd(filter);
  const condition = fields[first];
  if (condition !== undefined) {
    const targeting = conditionTargeting(condition, kind === 'hashed');
    // One shard only with an equality on every field of the key; on a prefix, the chunks holding it.
    const wholeKey = key.slice(1).every(([field]) => fields[field] !== undefined && conditionTargeting(fields[field]!, false) === 'one shard');
    found.push(targeting === 'one shard' && !wholeKey ? 'targeted' : targeting);
  }
  const and = filter.$and;
  if (Array.isArray(and)) for (const branch of and) if (isDocument(branch)) found.push(filterTargeting(branch, key));
  const or = filter.$or;
  if (Array.isArray(or) && or.length > 0) {
    // Every branch must be targeted for the whole to be.
    const branches = or.map((branch) => (isDocument(branch) ? filterTargeting(branch, key) : 'broadcast'));
    found.push(branches.includes('broadcast') ? 'broadcast' : 'targeted');
  }
  // Conditions under $and narrow each other: the most precise one routes.
  for (const precise of ['one shard', 'targeted'] as const) if (found.includes(precise)) return precise;
  return 'broadcast';
}

/** The filter's fields with those its `$and` branches name (at any depth), which hold together: `{$and: [{a: 1}, {b: 2}]}` selects as `{a: 1, b: 2}`. */
function withFieldsOfAnd(filter: Readonly<Record<string, FilterShape>>): Readonly<Record<string, FilterShape>> {
  const and = filter.$and;
  if (!Array.isArray(and)) return filter;
  const fields: Record<string, FilterShape> = { ...filter };
  for (const branch of and) {
    if (!isDocument(branch)) continue;
    for (const [field, condition] of Object.entries(withFieldsOfAnd(branch))) if (!field.startsWith('$') && fields[field] === undefined) fields[field] = condition;
  }
  return fields;
}

/**
 * One field's condition: an equality (one shard, for that field), `$in` or a range on a ranged key
 * (targeted), or neither. A `$regex` is one of docjoin's anchored prefixes (a list's `prefix` filter),
 * which mongos bounds like a range.
 */
function conditionTargeting(condition: FilterShape, hashed: boolean): Targeting {
  if (condition === '?') return 'one shard';
  if (!isDocument(condition)) return 'broadcast';
  const operators = Object.keys(condition);
  if (operators.includes('$eq')) return 'one shard';
  if (operators.includes('$in')) return 'targeted';
  const range = operators.some((operator) => operator === '$gt' || operator === '$gte' || operator === '$lt' || operator === '$lte' || operator === '$regex');
  return range && !hashed ? 'targeted' : 'broadcast';
}

function isDocument(shape: FilterShape | undefined): shape is Readonly<Record<string, FilterShape>> {
  return shape !== undefined && shape !== '?' && !Array.isArray(shape);
}
