import type { StoredDocument } from '../mongo/mongo-funnel';
import type { RelationField, StorageMap } from '../storage-map/storage-map-types';

/** What the sizes are read from (the mongo funnel). */
export interface SizeSource {
  estimatedDocumentCount(collection: string): Promise<number>;
  /** Startup statistics (not attributed to any request). */
  aggregateStatistics(collection: string, pipeline: readonly StoredDocument[]): Promise<StoredDocument[]>;
}

/** How often the sizes are counted again while the gateway runs. */
export const SIZE_REFRESH_MS = 30_000;

/** A list read from an array its parent document holds: references, an embedded array, snapshot copies. */
interface ArrayList {
  readonly coordinate: string;
  readonly collection: string;
  readonly path: string;
}

/**
 * What the data holds, for the document estimate, measured at startup and then every SIZE_REFRESH_MS:
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
  #timer: NodeJS.Timeout | undefined;

  constructor(
    storageMap: StorageMap,
    private readonly source: SizeSource,
  ) {
    const named = [...storageMap.types.values()].flatMap((type) => (type.collection === undefined ? [] : [type.collection]));
    const joined = [...storageMap.relations.values()].flatMap((field) => (field.shapes.join ? [field.shapes.join.collection] : []));
    this.#collections = [...new Set([...named, ...joined])];
    this.#arrays = [...storageMap.relations.values()].flatMap((field) => {
      const collection = storageMap.types.get(field.typeName)?.collection;
      const path = arrayPath(field);
      return collection !== undefined && path !== undefined ? [{ coordinate: field.coordinate, collection, path }] : [];
    });
  }

  /** Counts every collection now, then keeps counting in the background until `stop`. */
  async start(): Promise<void> {
    await this.refresh();
    this.#timer = setInterval(() => void this.refresh().catch(() => undefined), SIZE_REFRESH_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
  }

  async refresh(): Promise<void> {
    const counts = await Promise.all(this.#collections.map(async (collection) => [collection, await this.source.estimatedDocumentCount(collection)] as const));
    for (const [collection, count] of counts) this.#sizes.set(collection, count);
    for (const list of this.#arrays) {
      const [row] = await this.source.aggregateStatistics(list.collection, [
        { $project: { n: { $cond: [{ $isArray: `$${list.path}` }, { $size: `$${list.path}` }, 1] } } },
        { $group: { _id: null, longest: { $max: '$n' } } },
      ]);
      this.#longest.set(list.coordinate, typeof row?.longest === 'number' ? row.longest : 0);
    }
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

/** The parent's array a list field reads whole: its by-key references, its embedded array, its copies. */
function arrayPath(field: RelationField): string | undefined {
  if (!field.isList) return undefined;
  const join = field.shapes.join;
  if (join?.direction === 'byKey') return join.localField;
  return field.shapes.snapshot?.path ?? field.shapes.embedded?.path;
}
