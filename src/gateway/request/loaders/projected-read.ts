import type { StoredDocument } from '../../documents/stored-document';
import { elementLookupTarget, hasLookups, projectStages, toFindProjection, type Projection } from '../../operation/planning/projection';
import type { CommandScope, MongoFunnel, RequestScope } from '../mongo/mongo-funnel';

export interface ProjectedReadOptions {
  readonly sort?: Record<string, 1 | -1>;
  readonly limit?: number;
  readonly batchSize?: number;
}

/**
 * The documents of `collection` that match `filter`, with `projection`: one find; or, when the
 * projection reads relations by `lookup`, the same read as one aggregate (`$match`, `$sort`, `$limit`,
 * then its `$lookup` stages and `$project`), whose nested documents the ledger counts.
 */
export async function readProjected(funnel: MongoFunnel, scope: CommandScope, collection: string, filter: StoredDocument, projection: Projection, options: ProjectedReadOptions = {}): Promise<StoredDocument[]> {
  const { sort, limit, batchSize } = options;
  if (!hasLookups(projection)) {
    return funnel.find(scope, collection, filter, { projection: toFindProjection(projection), ...(sort && { sort }), ...(limit !== undefined && { limit }), ...(batchSize !== undefined && { batchSize }) });
  }
  const pipeline = [{ $match: filter }, ...(sort ? [{ $sort: sort }] : []), ...(limit !== undefined ? [{ $limit: limit }] : []), ...projectStages(projection)];
  const documents = await funnel.aggregate(scope, collection, pipeline, batchSize !== undefined ? { batchSize } : {});
  countLookedUp(scope, documents, projection);
  return documents;
}

/** Tells the request's ledger how many documents the `$lookup`s of a read's projection brought inside `documents`. */
export function countLookedUp(scope: RequestScope, documents: readonly StoredDocument[], projection: Projection): void {
  const count = lookedUp(documents, projection);
  if (count > 0) scope.ledger.lookedUp(count);
}

function lookedUp(documents: readonly StoredDocument[], projection: Projection): number {
  let count = 0;
  for (const [name, entry] of projection) {
    if (typeof entry !== 'object' || !('lookup' in entry)) continue;
    const element = elementLookupTarget(name);
    const holders = element ? documents.flatMap((document) => elementsAt(document, element.path)) : documents;
    const as = element ? element.as : name;
    for (const holder of holders) {
      const joined = holder[as];
      if (!Array.isArray(joined)) continue;
      count += joined.length + lookedUp(joined as StoredDocument[], entry.lookup.projection);
    }
  }
  return count;
}

/** The embedded objects at the top-level field `path`: the elements of an array, or the object itself. */
function elementsAt(document: StoredDocument, path: string): StoredDocument[] {
  const value = document[path];
  const values = Array.isArray(value) ? value : [value];
  return values.filter((element): element is StoredDocument => element !== null && typeof element === 'object' && !Array.isArray(element));
}
