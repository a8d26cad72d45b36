import type { CounterRule } from '../../writes/write-model-types';
import type { CountSpec } from './count-loader';

/** How a `@counter` field is counted by query instead of read: what it counts, and the parent's key for it. */
export interface CounterCount {
  /** The counter's `Type.field`. */
  readonly coordinate: string;
  /** The counter's stored path. */
  readonly path: string;
  /** The parent path whose value the counted documents hold. */
  readonly parentKey: string;
  readonly spec: CountSpec;
}

/**
 * The count a counter stands for, as one count aggregate per level: the children pointing at the parent,
 * or the truth side of an inverse (whose path may list several parents: `authors.id`).
 */
export function counterCount(rule: CounterRule): CounterCount {
  const { source } = rule;
  const spec: CountSpec =
    source.kind === 'children'
      ? { collection: source.childCollection, foreignField: source.childKey, filter: undefined, filterSignature: 'null' }
      : { collection: source.inverse.truthCollection, foreignField: source.inverse.truthPath, filter: undefined, filterSignature: 'null', multikey: true };
  return { coordinate: rule.coordinate, path: rule.path, parentKey: source.kind === 'children' ? source.parentKey : '_id', spec };
}
