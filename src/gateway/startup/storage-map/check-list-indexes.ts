import type { IndexDescription } from '../../documents/index-description';
import type { FindRootField, ListRootField, StorageMap } from './storage-map-types';

/**
 * A reverse join's order and its declared filters and orders: warns when no index starts with the join
 * key and the order (each page then sorts in memory) or with the join key and a filtered field (each
 * page reads every child of its parent), with the createIndex that would serve it.
 */
export async function checkRelationListIndexes(storageMap: StorageMap, existing: ReadonlySet<string>, indexesOf: (collection: string) => Promise<IndexDescription[]>): Promise<string[]> {
  const warnings: string[] = [];
  for (const field of storageMap.relations.values()) {
    const join = field.shapes.join;
    const { conditions, orderBy } = field.listArguments;
    if (!join || join.direction !== 'byReference' || !existing.has(join.collection)) continue;
    // The default _id order alone is not warned about: every reverse join has it, and its sort is of the children the key's index finds.
    if (conditions.length === 0 && !orderBy && (join.sort.length === 0 || join.sort[0]!.path === '_id')) continue;
    const indexes = await indexesOf(join.collection);
    const keyOf = (paths: ReadonlyArray<readonly [string, number]>) => paths.map(([path, direction]) => `${quoteKey(path)}: ${direction}`).join(', ');
    const sorts = [join.sort, ...(orderBy ? orderBy.sorts.values() : [])];
    for (const sort of sorts) {
      const wanted = [[join.foreignField, 1] as const, ...sort.map((key) => [key.path, key.direction] as const)];
      if (!indexes.some((index) => leadsWith(index, wanted, 1))) {
        warnings.push(`${field.coordinate}: no index serves its order { ${keyOf(wanted.slice(1))} } for each parent; create one with db.${join.collection}.createIndex({ ${keyOf(wanted)} })`);
      }
    }
    for (const condition of conditions) {
      if (indexes.some((index) => Object.keys(index.key)[0] === join.foreignField && Object.keys(index.key).includes(condition.path))) continue;
      const wanted = [[join.foreignField, 1] as const, [condition.path, 1] as const, ...join.sort.filter((key) => key.path !== condition.path).map((key) => [key.path, key.direction] as const)];
      warnings.push(`${field.coordinate}: argument "${condition.argumentName}" filters ${join.collection}.${condition.path}, which no index on ${join.foreignField} covers; create one with db.${join.collection}.createIndex({ ${keyOf(wanted)} })`);
    }
  }
  return warnings;
}

/**
 * Generated root fields against the indexes: a `@find` not by `_id` needs a unique index over its
 * arguments' fields (else it could match several documents and answer with an arbitrary one), and
 * every field a `@list` filters on must lead an index (else every request scans the collection). Both
 * refuse the start. A `@list` order no index serves is a warning: the page is sorted in memory.
 */
export async function checkRootIndexes(
  storageMap: StorageMap,
  existing: ReadonlySet<string>,
  indexesOf: (collection: string) => Promise<IndexDescription[]>,
): Promise<{ problems: string[]; warnings: string[] }> {
  const problems: string[] = [];
  const warnings: string[] = [];
  for (const root of storageMap.roots.values()) {
    if (!existing.has(root.collection)) continue;
    const indexes = await indexesOf(root.collection);
    if (root.kind === 'find') problems.push(...findProblems(root, indexes));
    else {
      problems.push(...filterProblems(root, indexes));
      warnings.push(...sortWarnings(root, indexes));
    }
  }
  return { problems, warnings };
}

function findProblems(root: FindRootField, indexes: readonly IndexDescription[]): string[] {
  const paths = new Set(root.conditions.map((condition) => condition.path));
  if (paths.has('_id')) return [];
  const unique = indexes.some((index) => index.unique && Object.keys(index.key).every((path) => paths.has(path)));
  if (unique) return [];
  const key = [...paths].map((path) => `${quoteKey(path)}: 1`).join(', ');
  // `id: String!` reads a stored field `id`: only an `ID` named id is the document's _id.
  const byStoredId = root.conditions.length > 0 && root.conditions.every((condition) => condition.argumentName === 'id' && condition.path === 'id') ? ` (${root.targetType}.id is read from a stored field "id"; if it means the documents' _id, type it ID or add @path(path: "_id"))` : '';
  return [
    `${root.coordinate}: @find by ${[...paths].join(', ')} needs a unique index, else it could match several ${root.targetType}s; create one with db.${root.collection}.createIndex({ ${key} }, { unique: true })${byStoredId}`,
  ];
}

function filterProblems(root: ListRootField, indexes: readonly IndexDescription[]): string[] {
  const problems: string[] = [];
  const reported = new Set<string>();
  for (const condition of root.conditions) {
    if (condition.path === '_id' || reported.has(condition.path)) continue;
    if (indexes.some((index) => Object.keys(index.key)[0] === condition.path)) continue;
    reported.add(condition.path);
    problems.push(
      `${root.coordinate}: argument "${condition.argumentName}" filters ${root.collection}.${condition.path}, which no index leads; create one with db.${root.collection}.createIndex({ ${quoteKey(condition.path)}: 1 })`,
    );
  }
  return problems;
}

function sortWarnings(root: ListRootField, indexes: readonly IndexDescription[]): string[] {
  const sorts = [root.sort, ...(root.orderBy ? root.orderBy.sorts.values() : [])];
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const sort of sorts) {
    const spec = sort.map((key) => `${quoteKey(key.path)}: ${key.direction}`).join(', ');
    if (sort[0]?.path === '_id' || seen.has(spec) || indexes.some((index) => leadsWith(index, sort.map((key) => [key.path, key.direction] as const)))) continue;
    seen.add(spec);
    warnings.push(`${root.coordinate}: no index serves the order { ${spec} }; each page sorts ${root.collection} in memory. Create one with db.${root.collection}.createIndex({ ${spec} })`);
  }
  return warnings;
}

/**
 * Whether the index's keys begin with `paths`, their directions all as given or all reversed (a scan
 * either way serves the order). Keys before `directionsFrom` match by path alone (an equality on them
 * leaves the order to the rest).
 */
function leadsWith(index: IndexDescription, paths: ReadonlyArray<readonly [string, number]>, directionsFrom = 0): boolean {
  const keys = Object.entries(index.key);
  const matches = (sign: 1 | -1) => paths.every(([path, direction], i) => keys[i]?.[0] === path && (i < directionsFrom || Number(keys[i]?.[1]) === direction * sign));
  return matches(1) || matches(-1);
}

/** A key of an index spec as the mongo shell reads it: a dotted path quoted. */
export function quoteKey(path: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(path) ? path : JSON.stringify(path);
}
