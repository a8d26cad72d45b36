import { getNamedType, isObjectType } from 'graphql';
import { stepsByFieldName, type FieldStep } from '../plan/selection-tree';
import { planProjection, type PlanningContext } from './plan-projection';
import { hasLookups, mergeProjections, type Projection } from './projection';

const NONE: ReadonlyMap<string, Projection> = new Map();

/**
 * The documents that joins right under `step` (a mutation field) will load by `_id`, per collection,
 * with every path those joins read of them: single by-key relations that this request reads with
 * their join, unless their selection reads a relation by lookup. A write that changes one of those
 * documents can have MongoDB return it, and the join then finds it read.
 */
export function joinsById(planning: PlanningContext, step: FieldStep): ReadonlyMap<string, Projection> {
  const type = step.definition && getNamedType(step.definition.type);
  const storage = isObjectType(type) ? planning.storageMap.types.get(type.name) : undefined;
  if (!type || !storage) return NONE;
  const projections = new Map<string, Projection[]>();
  for (const [fieldName, steps] of stepsByFieldName(step.children, type.name)) {
    const field = storage.fields.get(fieldName);
    if (field?.kind !== 'relation' || field.isList || field.connection || planning.strategyFor(field) !== 'join') continue;
    const join = field.shapes.join;
    if (join?.direction !== 'byKey' || join.foreignField !== '_id') continue;
    const projection = planProjection(planning, join.targetType, steps.flatMap((aliased) => aliased.children));
    // A write returns its document without $lookup: the join reads one whose selection looks something up.
    if (hasLookups(projection)) continue;
    const list = projections.get(join.collection);
    if (list) list.push(projection);
    else projections.set(join.collection, [projection]);
  }
  if (projections.size === 0) return NONE;
  return new Map([...projections].map(([collection, list]) => [collection, mergeProjections(list)]));
}
