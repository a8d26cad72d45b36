import { getArgumentValues, type FieldNode, type GraphQLField } from 'graphql';
import { InvariantError } from '../errors/internal-errors';
import type { ReadStrategy, RelationField, SnapshotShape, StorageMap } from '../storage-map/storage-map-types';
import { collectSelection, type SelectionSource } from './collect-selection';
import { MAX_FIRST } from './page-limits';
import { projectionOf, type Projection, type ProjectionEntry } from './projection';
import { asksForList, requestedList } from './requested-list';

export interface PlanningContext extends SelectionSource {
  readonly storageMap: StorageMap;
  /** The strategy this request reads the field with (default or overridden). */
  strategyFor(field: RelationField): ReadStrategy;
}

/**
 * Projection pushdown: the stored paths of `typeName` documents that the selection under `fieldNodes`
 * needs — selected fields mapped to their stored paths, plus the keys the next level's joins read.
 */
export function planProjection(context: PlanningContext, typeName: string, fieldNodes: readonly FieldNode[]): Projection {
  const typeStorage = context.storageMap.types.get(typeName);
  if (!typeStorage) throw new InvariantError(`planProjection: no storage for type ${typeName}`);
  const entries: Array<readonly [string, ProjectionEntry]> = [['_id', 1]];
  for (const [fieldName, nodes] of collectSelection(context, typeName, fieldNodes)) {
    const storage = typeStorage.fields.get(fieldName);
    if (!storage) continue; // __typename
    if (storage.kind === 'stored') {
      entries.push([storage.path, 1]);
      continue;
    }
    const asks = asksForListIn(context, storage, nodes);
    const strategy = asks && storage.shapes.join && context.strategyFor(storage) === 'embedded' ? 'join' : context.strategyFor(storage);
    switch (strategy) {
      case 'embedded':
        entries.push(...embeddedEntries(context, storage, nodes, asks));
        break;
      case 'join':
        entries.push([storage.shapes.join!.localField, 1]);
        break;
      case 'snapshot': {
        const shape = storage.shapes.snapshot!;
        // Aliases resolve apart, each against its own selection: when one fits, the copy is read whole
        // (the others' misses read their keys inside it).
        const fits = nodes.some((node) => snapshotFits(context, shape, storage.targetType, [node]));
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
 * fields of each element (MongoDB projects inside arrays), else the whole array: filters and orders read
 * all of it (`first` then cuts it in the resolver), an interface or union element has no storage of its
 * own, and a `$slice` of an array inside the elements is not pushed down.
 */
function embeddedEntries(context: PlanningContext, field: RelationField, nodes: readonly FieldNode[], asks: boolean): Array<readonly [string, ProjectionEntry]> {
  const { path } = field.shapes.embedded!;
  const slice = asks ? undefined : embeddedSlice(context, field, nodes);
  if (slice !== undefined) return [[path, { slice }]];
  if (asks || !context.storageMap.types.has(field.targetType)) return [[path, 1]];
  const inner = [...planProjection(context, field.targetType, nodes)];
  if (inner.some(([, entry]) => entry !== 1)) return [[path, 1]];
  return inner.map(([innerPath, entry]) => [`${path}.${innerPath}`, entry] as const);
}

/** Whether any alias of the field asks for filters or an order (see strategyForRequest). */
function asksForListIn(context: PlanningContext, field: RelationField, nodes: readonly FieldNode[]): boolean {
  if (field.listArguments.conditions.length === 0 && !field.listArguments.orderBy) return false;
  const fieldDefinition = fieldDefinitionOf(context, field);
  return nodes.some((node) => {
    try {
      return asksForList(requestedList(field, getArgumentValues(fieldDefinition, node, context.variableValues as Record<string, unknown>)));
    } catch {
      return false; // the resolver refuses these arguments (BAD_USER_INPUT) before reading anything
    }
  });
}

/** Whether every field selected under a snapshot field is in the snapshot's copy. */
export function snapshotFits(source: SelectionSource, shape: SnapshotShape, targetType: string, fieldNodes: readonly FieldNode[]): boolean {
  return snapshotMissingFields(source, shape, targetType, fieldNodes).length === 0;
}

/**
 * The fields selected under a snapshot field that its copy lacks, in selection order: the ones that,
 * had they been in the snapshot's `fields`, would have let the copy serve the selection.
 */
export function snapshotMissingFields(source: SelectionSource, shape: SnapshotShape, targetType: string, fieldNodes: readonly FieldNode[]): string[] {
  return selectedFieldNames(source, targetType, fieldNodes).filter((fieldName) => !shape.fields.includes(fieldName));
}

/** The fields of `targetType` the selection reads (aliases and fragments merged, `__typename` left out), in selection order. */
export function selectedFieldNames(source: SelectionSource, targetType: string, fieldNodes: readonly FieldNode[]): string[] {
  return [...collectSelection(source, targetType, fieldNodes).keys()].filter((fieldName) => fieldName !== '__typename');
}

/**
 * The snapshot's fields that the selection under a snapshot field reads from each copy, in selection
 * order. A field stored at `_id` is left out: it is read from the copy's key, which every copy holds.
 */
export function snapshotSelectedFields(context: PlanningContext, shape: SnapshotShape, targetType: string, fieldNodes: readonly FieldNode[]): string[] {
  const target = context.storageMap.types.get(targetType);
  const selected: string[] = [];
  for (const fieldName of collectSelection(context, targetType, fieldNodes).keys()) {
    const storage = target?.fields.get(fieldName);
    if (shape.fields.includes(fieldName) && !(storage?.kind === 'stored' && storage.path === '_id')) selected.push(fieldName);
  }
  return selected;
}

/** The largest `first` among the field's aliases, or undefined when the field has no `first`. */
function embeddedSlice(context: PlanningContext, field: RelationField, nodes: readonly FieldNode[]): number | undefined {
  if (!field.pageArguments.first) return undefined;
  const fieldDefinition = fieldDefinitionOf(context, field);
  let slice = 0;
  for (const node of nodes) {
    const first = getArgumentValues(fieldDefinition, node, context.variableValues as Record<string, unknown>).first;
    if (typeof first !== 'number') return undefined;
    // Out-of-range values fail in the resolver with BAD_USER_INPUT; the projection just stays bounded.
    slice = Math.max(slice, Math.min(Math.max(first, 0), MAX_FIRST));
  }
  return slice;
}

function fieldDefinitionOf(context: PlanningContext, field: RelationField): GraphQLField<unknown, unknown> {
  const definition = context.schema.getType(field.typeName);
  const fieldDefinition = definition && 'getFields' in definition ? definition.getFields()[field.fieldName] : undefined;
  if (!fieldDefinition || !('args' in fieldDefinition)) throw new InvariantError(`no definition for ${field.coordinate}`);
  return fieldDefinition as GraphQLField<unknown, unknown>;
}
