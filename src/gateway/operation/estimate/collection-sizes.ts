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

/** Documents sampled from each collection to measure its fields' sizes. */
export const FIELD_SAMPLE_SIZE = 100;
/** A share an average value size must move by before estimates are worked out again. */
const VALUE_BYTES_CHANGE = 0.25;

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
  /** Average JSON bytes of a stored field's value, by collection, then stored path. */
  readonly #valueBytes = new Map<string, ReadonlyMap<string, number>>();
  readonly #collections: readonly string[];
  readonly #arrays: readonly ArrayList[];
  /** The stored scalar paths of each collection's types: what a response can read of its documents. */
  readonly #storedPaths: ReadonlyMap<string, readonly string[]>;
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
    const storedPaths = new Map<string, Set<string>>();
    for (const type of storageMap.types.values()) {
      if (type.collection === undefined) continue;
      const paths = storedPaths.get(type.collection) ?? new Set<string>();
      for (const field of type.fields.values()) if (field.kind === 'stored') paths.add(field.path);
      storedPaths.set(type.collection, paths);
    }
    this.#storedPaths = new Map([...storedPaths].map(([collection, paths]) => [collection, [...paths]]));
  }

  /** Counts every collection now, then keeps counting in the background until `stop`. */
  async start(): Promise<void> {
    await this.countSizes();
    await this.measureArrays();
    await this.measureValueSizes();
    this.#every(SIZE_REFRESH_MS, () => this.countSizes());
    this.#every(ARRAY_REFRESH_MS, () => this.measureArrays());
    this.#every(ARRAY_REFRESH_MS, () => this.measureValueSizes());
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

  /**
   * The average size, as JSON, of each stored field's value, over a random sample of each collection.
   * Only what the refusal of an oversized response reports, so a collection that cannot be sampled is
   * left unmeasured (ASSUMED_VALUE_BYTES), and the estimates are worked out again only when an average
   * moved by more than VALUE_BYTES_CHANGE.
   */
  async measureValueSizes(): Promise<void> {
    let moved = false;
    await Promise.all(
      [...this.#storedPaths].map(async ([collection, paths]) => {
        if (paths.length === 0) return;
        const topLevel = new Set(paths.map((path) => path.split('.')[0]!));
        const sample = await this.source
          .aggregateStatistics(collection, [{ $sample: { size: FIELD_SAMPLE_SIZE } }, { $project: Object.fromEntries([...topLevel].map((field) => [field, 1])) }])
          .catch(() => []);
        if (sample.length === 0) return;
        const averages = new Map(paths.map((path) => [path, Math.ceil(sample.reduce((sum, document) => sum + jsonBytes(valueAt(document, path)), 0) / sample.length)]));
        const before = this.#valueBytes.get(collection);
        if (before && paths.every((path) => Math.abs(averages.get(path)! - (before.get(path) ?? 0)) <= VALUE_BYTES_CHANGE * Math.max(1, before.get(path) ?? 0))) return;
        this.#valueBytes.set(collection, averages);
        moved = true;
      }),
    );
    if (moved) this.#version++;
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

  /** The average JSON bytes of the value stored at `path` in `collection`'s documents; undefined when not measured. */
  valueBytes(collection: string, path: string): number | undefined {
    return this.#valueBytes.get(collection)?.get(path);
  }

  /** The most entries the list field `coordinate` can hold in one parent; undefined when not measured. */
  listLength(coordinate: string): number | undefined {
    const longest = this.#longest.get(coordinate);
    return longest === undefined ? undefined : Math.ceil(longest * 1.25) + 2;
  }
}

/** The value at a dotted path of a document (the first array's items are not looked into). */
function valueAt(document: StoredDocument, path: string): unknown {
  let value: unknown = document;
  for (const part of path.split('.')) value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined;
  return value;
}

/** The bytes `value` takes in a JSON response (ObjectId and Date serialise as their strings); null when absent. */
function jsonBytes(value: unknown): number {
  return value === undefined ? 4 : Buffer.byteLength(JSON.stringify(value) ?? 'null');
}
