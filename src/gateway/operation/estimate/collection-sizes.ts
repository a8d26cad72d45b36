import type { StoredDocument } from '../../documents/stored-document';
import { listArrayPathsOf } from '../../startup/storage-map/list-array';
import type { StorageMap } from '../../startup/storage-map/storage-map-types';

/** What the sizes are read from (the mongo funnel). */
export interface SizeSource {
  estimatedDocumentCount(collection: string): Promise<number>;
  /** Startup statistics (not attributed to any request). */
  aggregateStatistics(collection: string, pipeline: readonly StoredDocument[]): Promise<StoredDocument[]>;
}

/** How often the sizes are counted again while the gateway runs (from collection metadata: cheap). */
export const SIZE_REFRESH_MS = 30_000;
/** How often the longest arrays are measured again (a pass over each collection holding such a list). */
export const ARRAY_REFRESH_MS = 10 * 60_000;

/** A list read from an array its parent document holds: references, an embedded array, snapshot copies. */
interface ArrayList {
  readonly coordinate: string;
  readonly collection: string;
  /** The arrays a read of it can take (list-array.ts): the longest bounds its entries. */
  readonly paths: readonly string[];
}

/**
 * What the data holds, for the document estimate, measured at startup and then periodically (sizes
 * every SIZE_REFRESH_MS, arrays every ARRAY_REFRESH_MS):
 * - each collection's size: a batch never returns more documents of a collection than it holds (the
 *   loaders ask for each key once), so the estimate caps each batch by it;
 * - the longest array behind each list field of a collection type (`Author.books` reads `bookIds`), used
 *   instead of one assumed list size.
 * Both keep headroom for growth between measures (a quarter, plus a little); data that grows faster can
 * exceed them until the next measure.
 */
export class CollectionSizes {
  readonly #sizes = new Map<string, number>();
  readonly #longest = new Map<string, number>();
  readonly #collections: readonly string[];
  readonly #arrays: readonly ArrayList[];
  readonly #timers: NodeJS.Timeout[] = [];
  #version = 0;

  constructor(
    storageMap: StorageMap,
    private readonly source: SizeSource,
  ) {
    const named = [...storageMap.types.values()].flatMap((type) => (type.collection === undefined ? [] : [type.collection]));
    const joined = [...storageMap.relations.values()].flatMap((field) => (field.shapes.join ? [field.shapes.join.collection] : []));
    this.#collections = [...new Set([...named, ...joined])];
    this.#arrays = [...storageMap.relations.values()].flatMap((field) => {
      const collection = storageMap.types.get(field.typeName)?.collection;
      const paths = listArrayPathsOf(field);
      return collection !== undefined && paths.length > 0 ? [{ coordinate: field.coordinate, collection, paths }] : [];
    });
  }

  /** Counts every collection now, then keeps counting in the background until `stop`. */
  async start(): Promise<void> {
    await this.countSizes();
    await this.measureArrays();
    this.#every(SIZE_REFRESH_MS, () => this.countSizes());
    this.#every(ARRAY_REFRESH_MS, () => this.measureArrays());
  }

  stop(): void {
    for (const timer of this.#timers) clearInterval(timer);
  }

  #every(ms: number, measure: () => Promise<void>): void {
    const timer = setInterval(() => void measure().catch(() => undefined), ms);
    timer.unref();
    this.#timers.push(timer);
  }

  /** Changes whenever a measure does, so that what was estimated from the old measures is estimated again. */
  get version(): number {
    return this.#version;
  }

  async countSizes(): Promise<void> {
    const counts = await Promise.all(this.#collections.map(async (collection) => [collection, await this.source.estimatedDocumentCount(collection)] as const));
    for (const [collection, count] of counts) this.#measured(this.#sizes, collection, count);
  }

  async measureArrays(): Promise<void> {
    for (const list of this.#arrays) {
      const sizes = list.paths.map((path) => ({ $cond: [{ $isArray: `$${path}` }, { $size: `$${path}` }, 1] }));
      const [row] = await this.source.aggregateStatistics(list.collection, [
        { $project: { n: sizes.length === 1 ? sizes[0] : { $max: sizes } } },
        { $group: { _id: null, longest: { $max: '$n' } } },
      ]);
      this.#measured(this.#longest, list.coordinate, typeof row?.longest === 'number' ? row.longest : 0);
    }
  }

  #measured(measures: Map<string, number>, name: string, value: number): void {
    if (measures.get(name) === value) return;
    measures.set(name, value);
    this.#version++;
  }

  /** The most documents of `collection` one batch can return; undefined when not counted. */
  bound(collection: string): number | undefined {
    const size = this.#sizes.get(collection);
    return size === undefined ? undefined : Math.ceil(size * 1.25) + 100;
  }

  /** The most entries the list field `coordinate` can hold in one parent; undefined when not measured. */
  listLength(coordinate: string): number | undefined {
    const longest = this.#longest.get(coordinate);
    return longest === undefined ? undefined : Math.ceil(longest * 1.25) + 2;
  }
}
