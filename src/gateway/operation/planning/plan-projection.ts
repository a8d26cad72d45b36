import { getArgumentValues } from 'graphql';
import { InvariantError } from '../../errors/internal-errors';
import { selectedFieldNamesOf, stepsByFieldName, type FieldStep, type SelectionStep } from '../plan/selection-tree';
import type { ReadStrategy, RelationField, SnapshotShape, StorageMap } from '../../startup/storage-map/storage-map-types';
import type { SelectionSource } from '../plan/selection-source';
import { MAX_FIRST } from '../../startup/storage-map/page-limits';
import { isLookupEntry, projectionOf, type LookupRead, type Projection, type ProjectionEntry } from './projection';
import { asksForList, requestedList } from './requested-list';
import { planLookup, type PlannedLookup } from './lookup-read';

export interface PlanningContext extends SelectionSource {
  readonly storageMap: StorageMap;
  /** The strategy this request reads the field with (default or overridden). */
  strategyFor(field: RelationField): ReadStrategy;
  /**
   * Whether the request's role may read `typeName` (undefined: every type). A lookup into a type it may
   * not read is left out of the parents' read, which would fail as a whole: the field alone is refused.
   */
  canRead?(typeName: string): boolean;
}

/**
 * Projection pushdown: the stored paths of `typeName` documents that `selections` (a field's child
 * selections, or a connection's node selections, read from the plan) need — selected fields mapped to
 * their stored paths, plus the keys the next level's joins and aggregates read. Selections on other types are ignored,
 * unless none is on `typeName`: a hand-written resolver that answers a field of another type (a summary
 * type with the same field names) from `typeName` documents has its selection read by field name.
 */
export function planProjection(context: PlanningContext, typeName: string, selections: readonly SelectionStep[]): Projection {
  const typeStorage = context.storageMap.types.get(typeName);
  if (!typeStorage) throw new InvariantError(`planProjection: no storage for type ${typeName}`);
  const entries: Array<readonly [string, ProjectionEntry]> = [['_id', 1]];
  const onType = selections.some((selection) => selection.type.name === typeName) ? typeName : undefined;
  for (const [fieldName, steps] of stepsByFieldName(selections, onType)) {
    const aggregate = context.storageMap.aggregates.get(`${typeName}.${fieldName}`);
    if (aggregate?.parentLink) {
      // The parent's key, and the counter and totals that may answer its figures (storedFigurePaths).
      entries.push([aggregate.parentLink.localField, 1], ...(aggregate.counter ? [[aggregate.counter.path, 1] as const] : []), ...[...aggregate.totals.values()].map(({ path }) => [path, 1] as const));
      continue;
    }
    const storage = typeStorage.fields.get(fieldName);
    if (!storage) continue; // introspection
    if (storage.kind === 'stored') {
      entries.push([storage.path, 1]);
      continue;
    }
    const asks = asksForListIn(context, storage, steps);
    const strategy = asks && storage.shapes.join && context.strategyFor(storage) === 'embedded' ? 'join' : context.strategyFor(storage);
    switch (strategy) {
      case 'embedded':
        entries.push(...embeddedEntries(context, storage, steps, asks));
        break;
      case 'join':
        entries.push([storage.shapes.join!.localField, 1]);
        break;
      case 'lookup':
        entries.push([storage.shapes.join!.localField, 1], ...(context.canRead?.(storage.targetType) === false ? [] : lookupEntries(context, storage, steps)));
        break;
      case 'snapshot': {
        const shape = storage.shapes.snapshot!;
        // Aliases resolve apart, each against its own selection: when one fits, the copy is read whole
        // (the others' misses read their keys inside it).
        const fits = steps.some((step) => snapshotFits(shape, storage.targetType, step));
        entries.push([fits ? shape.path : shape.fallback.localField, 1]);
        break;
      }
      default: {
        const never: never = strategy;
        throw new InvariantError(`unknown strategy ${String(never)}`);
      }
    }
  }
  return projectionOf(entries);
}

/**
 * What an embedded field reads of its parent: the first `n` elements (`first`), else only the selected
 * fields of each element (MongoDB projects inside arrays), else the whole array: a list that may hold
 * null (a projection inside it would drop the nulls), filters and orders read
 * all of it (`first` then cuts it in the resolver), an interface or union element has no storage of its
 * own, and a `$slice` of an array inside the elements is not pushed down. The elements' joins read by
 * lookup are looked up for each element (elementLookups), whichever way the array is read, when it is
 * stored at a top-level field.
 */
function embeddedEntries(context: PlanningContext, field: RelationField, steps: readonly FieldStep[], asks: boolean): Array<readonly [string, ProjectionEntry]> {
  const { path } = field.shapes.embedded!;
  const hasStorage = context.storageMap.types.has(field.targetType);
  const inner = hasStorage ? [...planProjection(context, field.targetType, steps.flatMap((step) => step.children))] : [];
  // The documents are handed to the elements of a top-level field (projected-read.ts settleLookups).
  const lookups = path.includes('.') ? [] : elementLookups(inner).map(([name, entry]) => [`${path}.${name}`, entry] as const);
  const slice = asks ? undefined : embeddedSlice(context, field, steps);
  if (slice !== undefined) return [[path, { slice }], ...lookups];
  // MongoDB's projection of fields inside an array drops the elements that are no documents: a null of `[Line]` too.
  if (asks || !hasStorage || field.nullableElements || inner.some(([name, entry]) => entry !== 1 && !lookups.some(([looked]) => looked === `${path}.${name}`))) return [[path, 1], ...lookups];
  return inner.map(([innerPath, entry]) => [`${path}.${innerPath}`, entry] as const);
}

/**
 * The lookups of an embedded type's projection that can be read for each of its elements: a join by
 * key (its documents are matched to each element's keys). A reverse join's per-parent limit would apply
 * to all the elements together, and a lookup of an element's own embedded array is one level too deep:
 * those are joined.
 */
function elementLookups(inner: Iterable<readonly [string, ProjectionEntry]>): Array<readonly [string, { readonly lookup: LookupRead }]> {
  const lookups: Array<readonly [string, { readonly lookup: LookupRead }]> = [];
  for (const [name, entry] of inner) {
    if (isLookupEntry(entry) && !name.includes('.') && entry.lookup.direction === 'byKey') lookups.push([name, entry]);
  }
  return lookups;
}

/**
 * A lookup per alias page (aliases with the same page share one): the joined documents with what their
 * selection needs, its own lookups included, the key each holds (the resolver matches them to their
 * parent by it, as the join does), and for a join by key the paths its filters and order read
 * (applied to what comes back, as the join applies them). An alias whose page cannot be
 * looked up (planLookup) reads nothing more here: the resolver joins it.
 */
function lookupEntries(context: PlanningContext, field: RelationField, steps: readonly FieldStep[]): Array<readonly [string, ProjectionEntry]> {
  const shape = field.shapes.join!;
  const entries: Array<readonly [string, ProjectionEntry]> = [];
  for (const step of steps) {
    let planned: PlannedLookup | undefined;
    let paths: readonly string[];
    try {
      const args = argumentsOf(context, step);
      planned = planLookup(field, shape, args);
      paths = shape.direction === 'byKey' ? [shape.foreignField, ...requestedList(field, args).paths] : [shape.foreignField];
    } catch {
      continue; // the resolver refuses these arguments (BAD_USER_INPUT) before reading anything
    }
    if (!planned) continue;
    const selected = planProjection(context, field.targetType, step.children);
    const projection = paths.length === 0 ? selected : projectionOf([...selected, ...paths.map((path) => [path, 1] as const)]);
    entries.push([planned.as, { lookup: { ...planned.read, projection } }]);
  }
  return entries;
}

/** Whether any alias of the field asks for filters or an order (see strategyForRequest). */
function asksForListIn(context: PlanningContext, field: RelationField, steps: readonly FieldStep[]): boolean {
  if (field.listArguments.conditions.length === 0 && !field.listArguments.orderBy) return false;
  return steps.some((step) => {
    try {
      return asksForList(requestedList(field, argumentsOf(context, step)));
    } catch {
      return false; // the resolver refuses these arguments (BAD_USER_INPUT) before reading anything
    }
  });
}

/** Whether every field selected under a snapshot field is in the snapshot's copy. */
export function snapshotFits(shape: SnapshotShape, targetType: string, step: FieldStep): boolean {
  return snapshotMissingFields(shape, targetType, step).length === 0;
}

/**
 * The fields selected under a snapshot field that its copy lacks, in selection order: the ones that,
 * had they been in the snapshot's `fields`, would have let the copy serve the selection.
 */
export function snapshotMissingFields(shape: SnapshotShape, targetType: string, step: FieldStep): string[] {
  return selectedFieldNamesOf(step, targetType).filter((fieldName) => !shape.fields.includes(fieldName));
}

/**
 * The snapshot's fields that the selection under a snapshot field reads from each copy, in selection
 * order. A field stored at `_id` is left out: it is read from the copy's key, which every copy holds.
 */
export function snapshotSelectedFields(storageMap: StorageMap, shape: SnapshotShape, targetType: string, step: FieldStep): string[] {
  const target = storageMap.types.get(targetType);
  return selectedFieldNamesOf(step, targetType).filter((fieldName) => {
    const storage = target?.fields.get(fieldName);
    return shape.fields.includes(fieldName) && !(storage?.kind === 'stored' && storage.path === '_id');
  });
}

/** The largest `first` among the field's aliases, or undefined when the field has no `first`. */
function embeddedSlice(context: PlanningContext, field: RelationField, steps: readonly FieldStep[]): number | undefined {
  if (!field.pageArguments.first) return undefined;
  let slice = 0;
  for (const step of steps) {
    const first = argumentsOf(context, step).first ?? field.pageArguments.firstDefault;
    if (typeof first !== 'number') return undefined;
    // Out-of-range values fail in the resolver with BAD_USER_INPUT; the projection just stays bounded.
    slice = Math.max(slice, Math.min(Math.max(first, 0), MAX_FIRST));
  }
  return slice;
}

/** A field's argument values as graphql-js gives them to its resolver (every node of a response key has the same arguments). */
function argumentsOf(context: PlanningContext, step: FieldStep): Record<string, unknown> {
  if (!step.definition) throw new InvariantError(`no definition for ${step.coordinate}`);
  return getArgumentValues(step.definition, step.fieldNodes[0]!, context.variableValues as Record<string, unknown>);
}
