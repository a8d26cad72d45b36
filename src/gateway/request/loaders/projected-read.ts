import type { StoredDocument } from '../../documents/stored-document';
import { bsonType } from '../../documents/bson-type';
import { documentsHoldingKey, isKeyValue } from '../../documents/key-string';
import { readPath } from '../../documents/read-path';
import { elementLookupTarget, hasLookups, isLookupEntry, projectStages, sharedLookupName, toFindProjection, type LookupRead, type Projection } from '../../operation/planning/projection';
import type { CommandScope, MongoFunnel, RequestScope } from '../mongo/mongo-funnel';

export interface ProjectedReadOptions {
  readonly sort?: Record<string, 1 | -1>;
  readonly limit?: number;
  readonly batchSize?: number;
}

/**
 * The documents of `collection` that match `filter`, with `projection`: one find; or, when the
 * projection reads relations by `lookup`, the same read as one aggregate (`$match`, `$sort`, `$limit`,
 * then its `$project` and `$lookup` stages), settled by settleLookups.
 */
export async function readProjected(funnel: MongoFunnel, scope: CommandScope, collection: string, filter: StoredDocument, projection: Projection, options: ProjectedReadOptions = {}): Promise<StoredDocument[]> {
  const { sort, limit, batchSize } = options;
  if (!hasLookups(projection)) {
    return funnel.find(scope, collection, filter, { projection: toFindProjection(projection), ...(sort && { sort }), ...(limit !== undefined && { limit }), ...(batchSize !== undefined && { batchSize }) });
  }
  const pipeline = [{ $match: filter }, ...(sort ? [{ $sort: sort }] : []), ...(limit !== undefined ? [{ $limit: limit }] : []), ...projectStages(projection)];
  const documents = await funnel.aggregate(scope, collection, pipeline, batchSize !== undefined ? { batchSize } : {});
  settleLookups(scope, documents, projection);
  return documents;
}

/**
 * Finishes a read whose projection made lookups: takes what each `$lookup` brought out of the document
 * onto the documents handed out (handedOut), so that a key a document or element stores under a
 * lookup's name is never read as its result; hands each embedded element the documents of its own keys
 * from its document's shared list (an element lookup, projection.ts sharedLookupName), at every depth;
 * and tells the request's ledger how many documents the `$lookup`s brought from each collection.
 */
export function settleLookups(scope: RequestScope, documents: readonly StoredDocument[], projection: Projection): void {
  settle(documents, projection, (collection, count) => {
    if (count > 0) scope.ledger.lookedUp(collection, count);
  });
}

function settle(documents: readonly StoredDocument[], projection: Projection, arrived: (collection: string, count: number) => void): void {
  for (const { lookup, element, arrivedAt } of arrivalsOf(projection)) {
    let count = 0;
    for (const document of documents) {
      const joined = document[arrivedAt];
      if (!Array.isArray(joined)) continue;
      count += joined.length;
      settle(joined as StoredDocument[], lookup.projection, arrived);
      delete document[arrivedAt];
      if (element) handOut(document[element.path], element.as, joined as StoredDocument[], lookup);
      else handedOutTo(document).set(arrivedAt, joined as StoredDocument[]);
    }
    arrived(lookup.from, count);
  }
}

/** A projection's lookup, and where its documents arrive in each document the projection read. */
interface Arrival {
  readonly lookup: LookupRead;
  /** For an element lookup, the embedded path and the name each element gets its documents under. */
  readonly element: { readonly path: string; readonly as: string } | undefined;
  readonly arrivedAt: string;
}

const ARRIVALS = new WeakMap<Projection, readonly Arrival[]>();

/** Worked out once per projection (a cached plan's), not for each of the hundreds of lists a request settles. */
function arrivalsOf(projection: Projection): readonly Arrival[] {
  let arrivals = ARRIVALS.get(projection);
  if (arrivals) return arrivals;
  arrivals = [...projection].flatMap(([name, entry]) => {
    if (!isLookupEntry(entry)) return [];
    const element = elementLookupTarget(name);
    return [{ lookup: entry.lookup, element, arrivedAt: element ? sharedLookupName(name) : name }];
  });
  ARRIVALS.set(projection, arrivals);
  return arrivals;
}

/**
 * The documents each lookup brought, by the document or embedded element they belong to and the
 * lookup's `as`: beside it, not in it, since the element is also the stored value another field may
 * return whole (a JSON field over the same path), and a stored key of that name is not the lookup's.
 * A property no enumeration sees (a symbol, not enumerable), not a WeakMap: a request hands out
 * hundreds, and a process-wide WeakMap's entries cost the garbage collector on every collection until
 * their elements die.
 */
const HANDED_OUT = Symbol('docjoin.handedOut');

type HandedOut = Map<string, readonly StoredDocument[]>;

/** The documents the lookup `as` handed to `holder`, a document or an embedded element (settleLookups); undefined when none did. */
export function handedOut(holder: StoredDocument, as: string): readonly StoredDocument[] | undefined {
  return (holder as { [HANDED_OUT]?: HandedOut })[HANDED_OUT]?.get(as);
}

/** The documents handed out to `holder`, by lookup, made on its first. */
function handedOutTo(holder: object): HandedOut {
  let lookups = (holder as { [HANDED_OUT]?: HandedOut })[HANDED_OUT];
  if (!lookups) Object.defineProperty(holder, HANDED_OUT, { value: (lookups = new Map()) });
  return lookups;
}

/** Each object element of `value` (or `value`, an object) gets under `as` the documents whose `foreignField` is its key or one of its keys, as the join matches them. */
function handOut(value: unknown, as: string, joined: readonly StoredDocument[], { localField, foreignField }: LookupRead): void {
  const holdingKey = documentsHoldingKey(joined, foreignField);
  for (const element of Array.isArray(value) ? value : [value]) {
    if (element === null || typeof element !== 'object' || Array.isArray(element) || element instanceof Date || bsonType(element) !== undefined) continue;
    const held = readPath(element, localField);
    const keys = (Array.isArray(held) ? held : [held]).filter(isKeyValue);
    const found = keys.length === 1 ? holdingKey(keys[0]) : keys.flatMap(holdingKey);
    const own = found.length > 1 ? [...new Set(found)] : found;
    handedOutTo(element).set(as, own);
  }
}
