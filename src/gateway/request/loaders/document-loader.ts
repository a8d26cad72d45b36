import DataLoader from 'dataloader';
import type { ResponsePath } from 'graphql';
import type { FieldCostRecorder } from '../cost/cost-ledger';
import { isInOperand, keyString } from '../../documents/key-string';
import { readPath } from '../../documents/read-path';
import { ancestorPathKeys, responsePathKey } from '../../documents/response-path-key';
import type { MongoFunnel, RequestScope } from '../mongo/mongo-funnel';
import type { StoredDocument } from '../../documents/stored-document';
import { covers, hasLookups, isLookupEntry, mergeProjections, projectionOf, type Projection } from '../../operation/planning/projection';
import { readProjected } from './projected-read';

/** What every load carries: the paths the caller needs, where in the response it is made, and who asked (for attribution). */
interface LoadScope {
  readonly projection: Projection;
  /** The resolving field's `info.path`: the load may reuse only documents read for a field above it. */
  readonly path: ResponsePath;
  /** `Type.field` that asked, or `Query.x` for root fields. */
  readonly field: string;
  readonly cost?: FieldCostRecorder;
  /**
   * The keys are references one parent holds: `cost` counts each key no document has dangling, and the
   * parent dangled when none of its keys named a document.
   */
  readonly isReference?: boolean;
}

/** One key's load. */
export interface KeyLoad extends LoadScope {
  readonly key: unknown;
}

/** One parent's list of keys, loaded together: one entry in the batch, one promise, however many keys. */
export interface KeysLoad extends LoadScope {
  readonly keys: readonly unknown[];
}

type AnyLoad = KeyLoad | KeysLoad;
type Answer = StoredDocument | null;

/** One read that put documents in the cache: a batch's find, or a root find that primed the loader. */
interface Read {
  readonly sequence: number;
}

interface CachedDocument {
  readonly document: StoredDocument | null;
  readonly projection: Projection;
  readonly read: Read;
}

/**
 * Loads documents of one collection by one key field (a forward join), batching every load made in the
 * same tick into ONE `{ key: { $in: [...] } }` find whose projection is the union of the loads' projections.
 *
 * A document cache, filled by batches and by `prime` (root list results): a cached document satisfies a
 * later load only if it was fetched with every path that load needs (a missing document satisfies any
 * load: it stays missing), and only if it was read for a field **above** the load in the response —
 * the root list or a join the load's parent object came from. Those reads have always replied before the
 * load is made; a read of another branch (a sibling root field, a cousin join) may or may not have,
 * depending on which reply the network delivered first, so reusing it would make the cost of identical
 * operations differ from run to run. Such documents are read again. Cached answers are given inside the
 * batch, not before it, so every load made in one tick resolves at one time — at once when all were
 * cached, else when the find replies — which keeps the moments a field's results arrive at no more than
 * its parents' (estimate/README.md).
 */
export class DocumentLoader {
  /** Every copy read of each key, by its key string. */
  readonly #documents = new Map<string, CachedDocument[]>();
  /**
   * This loader's reads, by the response path (as a string: an executor may build a new path object
   * for every resolver call, so identity says nothing) of each load or root field they answered.
   */
  readonly #readsAt = new Map<string, Read[]>();
  #unindexed: Array<{ readonly read: Read; readonly paths: readonly ResponsePath[] }> = [];
  readonly #loader: DataLoader<AnyLoad, Answer | Answer[], string>;
  #reads = 0;

  constructor(
    private readonly funnel: MongoFunnel,
    private readonly request: RequestScope,
    readonly collection: string,
    readonly keyField: string,
  ) {
    // No promise cache: every load reaches #batch, which answers from the document cache, so that a
    // tick's loads all resolve at one time.
    this.#loader = new DataLoader((loads) => this.#batch(loads), { cache: false });
  }

  load(load: KeyLoad): Promise<Answer> {
    return this.#loader.load(load) as Promise<Answer>;
  }

  /** The documents of `load.keys`, in their order (null where none has the key), in the same batch as single loads. */
  loadMany(load: KeysLoad): Promise<Answer[]> {
    return this.#loader.load(load) as Promise<Answer[]>;
  }

  /**
   * Records documents a root field (or a resolver) read at `path`, with `projection`, so that loads
   * below that field which they satisfy cost nothing.
   */
  prime(documents: readonly StoredDocument[], projection: Projection, path: ResponsePath): void {
    const read = this.#newRead([path]);
    for (const document of documents) {
      const key = readPath(document, this.keyField);
      if (key === undefined || key === null || Array.isArray(key)) continue;
      this.#remember(keyString(key), { document, projection, read });
    }
  }

  /** Forgets every copy read so far: a write made after them may have changed (or deleted) the documents. */
  forget(): void {
    this.#documents.clear();
  }

  async #batch(loads: readonly AnyLoad[]): Promise<Array<Answer | Answer[]>> {
    // Every key of every load, flattened: entry i is key values[i] of load owners[i].
    const owners: AnyLoad[] = [];
    const values: unknown[] = [];
    for (const load of loads) {
      if ('keys' in load) {
        for (const key of load.keys) {
          owners.push(load);
          values.push(key);
        }
      } else {
        owners.push(load);
        values.push(load.key);
      }
    }
    const keys = values.map(keyString);
    // A list join's loads share one path: its reads above are gathered once.
    const above = new Map<ResponsePath, ReadonlySet<Read>>();
    const readsAbove = (path: ResponsePath) => {
      let reads = above.get(path);
      if (!reads) above.set(path, (reads = this.#readsAbove(path)));
      return reads;
    };
    const cached = owners.map((load, index) => this.#cached(load, keys[index]!, readsAbove));
    // The loads no cached copy answers, by the lookups their projections make (lookupsOf): each set is
    // one read, so that a document is not looked up for a field that did not ask.
    const missing = new Map<string, { loads: Set<AnyLoad>; keys: Map<string, unknown> }>();
    owners.forEach((load, index) => {
      if (cached[index] !== undefined) return;
      const lookups = lookupsOf(load.projection);
      let group = missing.get(lookups);
      if (!group) missing.set(lookups, (group = { loads: new Set(), keys: new Map() }));
      group.loads.add(load);
      group.keys.set(keys[index]!, values[index]);
    });
    const reads = await Promise.all([...missing].map(async ([lookups, group]) => [lookups, await this.#fetch([...group.loads], group.keys, loads)] as const));
    const fetched = new Map(reads);
    // A document read for a field counts once for it, however many of its loads asked for it.
    const counted = new Map<string, Set<string>>();
    const answer = (index: number): Answer => {
      const load = owners[index]!;
      const copy = cached[index];
      const key = keys[index]!;
      const document = copy ? copy.document : (fetched.get(lookupsOf(load.projection))?.get(key) ?? null);
      if (document !== null) load.cost?.delivered(1);
      if (document === null) {
        if (load.isReference) load.cost?.dangling(1);
        if (load.isReference && !('keys' in load)) load.cost?.parentDangled();
      } else if (!copy) {
        let keysOfField = counted.get(load.field);
        if (!keysOfField) counted.set(load.field, (keysOfField = new Set()));
        if (!keysOfField.has(key)) {
          keysOfField.add(key);
          load.cost?.documents(1);
        }
      }
      return document;
    };
    let next = 0;
    return loads.map((load) => {
      if (!('keys' in load)) return answer(next++);
      const documents: Answer[] = [];
      let found = 0;
      for (let count = load.keys.length; count > 0; count--) {
        const document = answer(next++);
        documents.push(document);
        if (document !== null) found += 1;
      }
      if (load.isReference && load.keys.length > 0 && found === 0) load.cost?.parentDangled();
      return documents;
    });
  }

  /** A copy of `key` read above the load with every path it needs; the reads above are only gathered when some copy has those paths. */
  #cached(load: AnyLoad, key: string, readsAbove: (path: ResponsePath) => ReadonlySet<Read>): CachedDocument | undefined {
    const copies = this.#documents.get(key);
    if (!copies) return undefined;
    for (const copy of copies) {
      if (copy.document !== null && !covers(copy.projection, load.projection)) continue;
      if (readsAbove(load.path).has(copy.read)) return copy;
    }
    return undefined;
  }

  /** The reads of this loader made for the fields above `path` (its ancestors in the response). */
  #readsAbove(path: ResponsePath): ReadonlySet<Read> {
    this.#indexReads();
    const reads = new Set<Read>();
    for (const above of ancestorPathKeys(path)) {
      for (const read of this.#readsAt.get(above) ?? []) reads.add(read);
    }
    return reads;
  }

  /** A new read, made for the fields at `paths`; they are indexed only once some load asks what lies above it (#indexReads). */
  #newRead(paths: readonly ResponsePath[]): Read {
    const read: Read = { sequence: ++this.#reads };
    this.#unindexed.push({ read, paths });
    return read;
  }

  #indexReads(): void {
    for (const { read, paths } of this.#unindexed) {
      for (const path of new Set(paths.map(responsePathKey))) {
        const reads = this.#readsAt.get(path);
        if (reads) reads.push(read);
        else this.#readsAt.set(path, [read]);
      }
    }
    this.#unindexed = [];
  }

  #remember(key: string, copy: CachedDocument): void {
    const copies = this.#documents.get(key);
    if (copies) copies.push(copy);
    else this.#documents.set(key, [copy]);
  }

  /**
   * ONE `{ key: { $in } }` find for the loads no cached document answers (`keys`: theirs, each once). What it read is
   * remembered for the fields below every load of the `batch`: they are made once the batch has resolved.
   */
  async #fetch(loads: readonly AnyLoad[], keys: ReadonlyMap<string, unknown>, batch: readonly AnyLoad[]): Promise<Map<string, StoredDocument>> {
    // A level's loads mostly share one projection and one field: each is merged or named once.
    const projections = new Set<Projection>();
    const askedBy = new Set<string>();
    for (const load of loads) {
      projections.add(load.projection);
      askedBy.add(load.field);
    }
    const projection = mergeProjections([...projections, projectionOf([[this.keyField, 1]])]);
    const fields = [...askedBy];
    // A stored key shaped like an operator finds nothing, and must not fail its siblings' read.
    const matchable = [...keys.values()].filter(isInOperand);
    const documents = matchable.length === 0 ? [] : await readProjected(this.funnel, { ...this.request, fields }, this.collection, { [this.keyField]: { $in: matchable } }, projection, { batchSize: matchable.length });
    const byKey = new Map<string, StoredDocument>();
    for (const document of documents) {
      const key = keyString(readPath(document, this.keyField));
      if (!byKey.has(key)) byKey.set(key, document);
    }
    const read = this.#newRead(batch.map((load) => load.path));
    for (const key of keys.keys()) this.#remember(key, { document: byKey.get(key) ?? null, projection, read });
    return byKey;
  }
}

const LOOKUPS = new WeakMap<Projection, string>();

/** The names of the lookups a projection makes, as one string ('' for none): loads that share it share a read. */
function lookupsOf(projection: Projection): string {
  let lookups = LOOKUPS.get(projection);
  if (lookups === undefined) {
    const names = hasLookups(projection) ? [...projection].filter(([, entry]) => isLookupEntry(entry)).map(([name]) => name) : [];
    LOOKUPS.set(projection, (lookups = names.sort().join(',')));
  }
  return lookups;
}
