import type { GraphQLSchema } from 'graphql';
import type { StoredDocument } from '../../documents/stored-document';
import { cursorPagedOrders } from './check-cursor-sorts';
import type { StorageMap } from './storage-map-types';

/** A MongoDB view: the collection (or view) it reads, and its pipeline. */
export interface ViewDefinition {
  readonly viewOn: string;
  readonly pipeline: readonly StoredDocument[];
}

/** Stages whose output may hold several documents of one `_id`, or ids the input had not. */
const ID_CHANGING_STAGES: ReadonlySet<string> = new Set(['$unwind', '$unionWith', '$facet', '$replaceRoot', '$replaceWith', '$densify', '$documents']);
/** Stages whose output holds one document per `_id`, their group's key, whatever came in. */
const GROUPING_STAGES: ReadonlySet<string> = new Set(['$group', '$bucket', '$bucketAuto', '$sortByCount']);
/** Stages that keep one document per input, but set or drop `_id` where their specification names it. */
const FIELD_STAGES: ReadonlySet<string> = new Set(['$project', '$addFields', '$set', '$unset']);

/**
 * What reads a view's rows by `_id` as if each `_id` named one row, where the view (or one it reads)
 * may hold several rows of one `_id`: a `@find` by id picks one of them, a join by id takes one, and a
 * page after a row (a cursor, `after`) skips the other rows of its `_id`. One problem each, naming the
 * field, the stage and the fix.
 */
export function viewIdProblems(storageMap: StorageMap, views: ReadonlyMap<string, ViewDefinition>, schema: GraphQLSchema | undefined): string[] {
  const changedBy = (collection: string) => idChangingStage(collection, views);
  const typeIn = (typeName: string) => storageMap.types.get(typeName)?.collection;
  const problems: string[] = [];
  const refuse = (coordinate: string, typeName: string, how: string, fix: string) => {
    const collection = typeIn(typeName);
    const stage = collection === undefined ? undefined : changedBy(collection);
    if (stage === undefined) return;
    // The usual $unwind of a view takes a $lookup's one match, which a $set of its $first takes without repeating anything.
    const unwound = stage.name === '$unwind' ? " (a $lookup's one match is taken by a $set: { field: { $first: '$field' } }, which repeats nothing; add a $match on the field where rows without a match are to go, as $unwind drops them)" : '';
    problems.push(`${coordinate}: ${how}, but ${typeName} is stored in the view ${collection}, which may hold several rows of one _id (${stage.view}'s ${stage.name}); ${fix}${unwound}`);
  };
  for (const root of storageMap.roots.values()) {
    if (root.kind === 'find' && root.conditions.some((condition) => condition.path === '_id')) refuse(root.coordinate, root.targetType, '@find picks one document by its id', 'find it in the collection beneath, or give each row of the view an _id of its own');
  }
  for (const relation of storageMap.relations.values()) {
    const join = relation.shapes.join;
    if (join?.direction === 'byKey' && join.foreignField === '_id') refuse(relation.coordinate, relation.targetType, 'its @join takes one document per id', 'join the collection beneath, or give each row of the view an _id of its own');
  }
  const paged = new Set<string>();
  for (const { coordinate, targetType } of schema === undefined ? [] : cursorPagedOrders(schema, storageMap)) {
    if (paged.has(coordinate)) continue;
    paged.add(coordinate);
    refuse(coordinate, targetType, 'a page after a row (a cursor, or after) starts past every row of its _id', 'page it with first alone, or give each row of the view an _id of its own');
  }
  return problems;
}

/**
 * The last stage, in the order MongoDB runs them (the pipeline of the view beneath first), after which
 * `collection` may hold several rows of one `_id` or ids the documents had not; undefined for a
 * collection, or a view whose ids are still one per row (none of those stages, or a grouping after them).
 */
function idChangingStage(collection: string, views: ReadonlyMap<string, ViewDefinition>): { view: string; name: string } | undefined {
  const chain: Array<{ name: string; view: ViewDefinition }> = [];
  for (let name = collection, view = views.get(name); view !== undefined && !chain.some((link) => link.name === name); name = view.viewOn, view = views.get(name)) {
    chain.unshift({ name, view });
  }
  let changed: { view: string; name: string } | undefined;
  for (const { name: viewName, view } of chain) {
    for (const stage of view.pipeline) {
      const [name] = Object.keys(stage);
      if (name === undefined) continue;
      if (GROUPING_STAGES.has(name)) changed = undefined;
      else if (ID_CHANGING_STAGES.has(name)) changed = { view: viewName, name };
      else if (FIELD_STAGES.has(name) && setsId(name, stage[name])) changed = { view: viewName, name: `${name} of _id` };
    }
  }
  return changed;
}

/**
 * Whether a `$project`/`$addFields`/`$set`/`$unset` specification sets or drops `_id` or a part of it
 * (`_id.tag`: a grouping key cut to less repeats); a `$project` keeping it whole with 1 or true does neither.
 */
function setsId(name: string, specification: unknown): boolean {
  const namesId = (path: string) => path === '_id' || path.startsWith('_id.');
  if (name === '$unset') return (typeof specification === 'string' && namesId(specification)) || (Array.isArray(specification) && specification.some((path) => typeof path === 'string' && namesId(path)));
  if (typeof specification !== 'object' || specification === null) return false;
  return Object.entries(specification as Record<string, unknown>).some(([path, value]) => namesId(path) && !(name === '$project' && path === '_id' && (value === 1 || value === true)));
}
