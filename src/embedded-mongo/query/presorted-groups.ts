import type { Document } from 'bson';
import { projectionKeepsPaths } from './apply-projection';
import { isPlainDocument } from './bson-kind';
import { plainNumber } from '../../bson/bson-number';
import { PRESORTED } from './presorted-mark';

const PICK_ACCUMULATORS = new Set(['$topN', '$bottomN', '$top', '$bottom']);

/**
 * The pipeline with the pick accumulators of a `$group` marked PRESORTED where the documents reach
 * that `$group` stably sorted by the accumulator's own `sortBy`: after a `$sort` (or input already in
 * `inputOrder`), through `$match`, `$skip`, `$limit` and plain-field `$project`s that keep every
 * sort path. Picking the first n of a stable sort by S out of input already stably sorted by S is
 * exactly the first n in arrival order, so results do not change. This is the gateway's reverse
 * join: `$sort` → `$project` → `$group` with `$topN` on the same sort. Returns the input array when
 * nothing applies; never mutates it.
 */
export function markPresortedGroups(pipeline: readonly Document[], inputOrder: Document | undefined): Document[] {
  let order = inputOrder;
  for (let at = 0; at < pipeline.length; at++) {
    const stage = pipeline[at]!;
    const [name] = Object.keys(stage);
    const spec: unknown = stage[name as string];
    switch (name) {
      case '$sort':
        order = isPlainDocument(spec) && Object.keys(spec).length > 0 ? spec : undefined;
        break;
      case '$match':
      case '$skip':
      case '$limit':
        break;
      case '$project':
        if (order !== undefined && !(isPlainDocument(spec) && projectionKeepsPaths(spec, Object.keys(order)))) order = undefined;
        break;
      case '$group': {
        const marked = order === undefined || !isPlainDocument(spec) ? undefined : markGroup(spec, order);
        if (marked === undefined) return [...pipeline];
        return [...pipeline.slice(0, at), { $group: marked }, ...pipeline.slice(at + 1)];
      }
      default:
        return [...pipeline];
    }
    if (order === undefined) return [...pipeline];
  }
  return [...pipeline];
}

function markGroup(spec: Document, order: Document): Document | undefined {
  let marked: Document | undefined;
  for (const field of Object.keys(spec)) {
    if (field === '_id') continue;
    const accumulator: unknown = spec[field];
    if (!isPlainDocument(accumulator)) continue;
    const [operator] = Object.keys(accumulator);
    if (operator === undefined || !PICK_ACCUMULATORS.has(operator) || Object.keys(accumulator).length !== 1) continue;
    const pick: unknown = accumulator[operator];
    if (!isPlainDocument(pick) || !isPlainDocument(pick.sortBy) || !sameSort(pick.sortBy, order)) continue;
    marked ??= { ...spec };
    marked[field] = { [operator]: { ...pick, [PRESORTED]: true } };
  }
  return marked;
}

/** Same keys in the same order with the same directions. */
function sameSort(a: Document, b: Document): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i]) return false;
    const da = plainNumber(a[ka[i]!]);
    if (da === undefined || (da !== 1 && da !== -1) || da !== plainNumber(b[kb[i]!])) return false;
  }
  return true;
}
