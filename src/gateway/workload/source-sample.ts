import { EJSON, ObjectId } from 'bson';
import type { SampledSource } from './workload-types';

/** Distinct source documents kept per set of changes. */
export const SAMPLED_SOURCES = 32;

/**
 * A uniform sample of the distinct source documents a set of changes touched, with the exact number of
 * changes of each (a bottom-k sketch): an id is kept when its hash is among the `size` smallest seen.
 * Whether an id belongs depends on its hash alone, so a kept id was kept from its first change (its
 * count is exact), and samples of several windows merge into the sample of them all.
 */
export class SourceSample {
  readonly #kept = new Map<string, { hash: number; changes: number }>();

  constructor(private readonly size: number = SAMPLED_SOURCES) {}

  /** One change of the document `id` (any BSON value). */
  addId(id: unknown): void {
    this.add(sampleKey(id), 1);
  }

  /** `changes` changes of the document whose id is `key` (the canonical Extended JSON of `{ id }`). */
  add(key: string, changes: number): void {
    const kept = this.#kept.get(key);
    if (kept) {
      kept.changes += changes;
      return;
    }
    const hash = fnv1a(key);
    if (this.#kept.size >= this.size) {
      const [largestKey, largest] = this.#largest();
      if (hash > largest.hash || (hash === largest.hash && key > largestKey)) return;
      this.#kept.delete(largestKey);
    }
    this.#kept.set(key, { hash, changes });
  }

  /** The kept ids, in the order of their keys. */
  entries(): SampledSource[] {
    return [...this.#kept.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, { changes }]) => ({ id, changes }));
  }

  #largest(): [string, { hash: number; changes: number }] {
    let largest: [string, { hash: number; changes: number }] | undefined;
    for (const entry of this.#kept) {
      if (!largest || entry[1].hash > largest[1].hash || (entry[1].hash === largest[1].hash && entry[0] > largest[0])) largest = entry;
    }
    return largest!;
  }
}

/**
 * The canonical Extended JSON of `{ id }`, written directly for the ids documents mostly have (an
 * ObjectId, a string): a mutation records one per changed document.
 */
function sampleKey(id: unknown): string {
  if (typeof id === 'string') return `{"id":${JSON.stringify(id)}}`;
  if (id instanceof ObjectId) return `{"id":{"$oid":"${id.toHexString()}"}}`;
  return EJSON.stringify({ id }, { relaxed: false });
}

/** The id a sampled source's key holds. */
export function sampledId(key: string): unknown {
  return (EJSON.parse(key, { relaxed: true }) as { id: unknown }).id;
}

/** 32-bit FNV-1a of the string's UTF-16 code units: cheap, and the same on every machine. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
