import { getDirective } from '@graphql-tools/utils';
import { getNamedType, isNonNullType, isObjectType, type GraphQLField, type GraphQLNamedType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { readAggregate, readCounter, readInverse, readTotal, type AggregateDirective } from './read-directives';
import { namesRefusedField } from './refused-fields';
import type { AggregateField, AggregateFigure, AggregateKey, RelationField, RootField, RootCondition, TypeStorage } from './storage-map-types';
import { aggregateTypeNames, DATE_SCALARS, EXACT_SUMS, groupFieldValue, NUMERIC_SCALARS } from '../aggregates/aggregate-names';

/** Whether a field declares `@aggregate` (the storage map does not read it as a stored or relation field). */
export function declaresAggregate(schema: GraphQLSchema, field: GraphQLField<unknown, unknown>): boolean {
  return getDirective(schema, field, 'aggregate') !== undefined;
}

/**
 * The object types the `@aggregate` fields return and the ones below them (`OrderAggregate`,
 * `OrderGroup`, `OrderSums`…): docjoin builds their values, no document stores them.
 */
export function aggregateValueTypes(schema: GraphQLSchema): Set<string> {
  const found = new Set<string>();
  const visit = (type: GraphQLNamedType): void => {
    // A stored type is never one (an @aggregate field declared with one is refused on its own).
    if (!isObjectType(type) || found.has(type.name) || getDirective(schema, type, 'collection') !== undefined) return;
    found.add(type.name);
    for (const field of Object.values(type.getFields())) visit(getNamedType(field.type));
  };
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) if (declaresAggregate(schema, field)) visit(getNamedType(field.type));
  }
  return found;
}

/**
 * Every `@aggregate` field of `types` (the Query type and the stored object types), checked against the
 * list it names and the target's storage. Problems go to `problems`, one line each naming `Type.field`
 * and the fix.
 */
export function buildAggregateFields(
  schema: GraphQLSchema,
  types: readonly GraphQLObjectType[],
  known: { readonly storage: ReadonlyMap<string, TypeStorage>; readonly relations: ReadonlyMap<string, RelationField>; readonly roots: ReadonlyMap<string, RootField>; readonly refused: ReadonlySet<string> },
  problems: string[],
): Map<string, AggregateField> {
  const aggregates = new Map<string, AggregateField>();
  for (const type of types) {
    for (const field of Object.values(type.getFields())) {
      const coordinate = `${type.name}.${field.name}`;
      let directive: AggregateDirective | undefined;
      try {
        directive = readAggregate(schema, field);
      } catch (error) {
        problems.push(`${coordinate}: ${(error as Error).message}`);
        continue;
      }
      if (!directive) continue;
      const report = (message: string): undefined => {
        if (!namesRefusedField(message, known.refused)) problems.push(`${coordinate}: ${message}`);
        return undefined;
      };
      const aggregate = buildAggregateField(schema, type, field, directive, known, report);
      if (aggregate) aggregates.set(coordinate, aggregate);
    }
  }
  return shareFiguresByTarget(aggregates, problems);
}

/**
 * The aggregates with the figures and keys of every aggregate over the same target type: they return
 * the same generated types (aggregate-type-defs.ts), whose fields are the union of what they declare.
 */
function shareFiguresByTarget(aggregates: ReadonlyMap<string, AggregateField>, problems: string[]): Map<string, AggregateField> {
  const figures = new Map<string, Map<string, AggregateFigure>>();
  const keys = new Map<string, Map<string, AggregateKey>>();
  for (const aggregate of aggregates.values()) {
    const targetFigures = figures.get(aggregate.targetType) ?? new Map<string, AggregateFigure>();
    const targetKeys = keys.get(aggregate.targetType) ?? new Map<string, AggregateKey>();
    for (const [name, figure] of aggregate.figures) targetFigures.set(name, figure);
    for (const [value, key] of aggregate.keys) {
      const other = targetKeys.get(value);
      if (other && other.fieldName !== key.fieldName) problems.push(`${aggregate.coordinate}: @aggregate(groupBy:) names ${aggregate.targetType}.${key.fieldName}, whose enum value ${value} another @aggregate over ${aggregate.targetType} gives ${other.fieldName}; group by one of them`);
      else targetKeys.set(value, key);
    }
    figures.set(aggregate.targetType, targetFigures);
    keys.set(aggregate.targetType, targetKeys);
  }
  return new Map([...aggregates].map(([coordinate, aggregate]) => [coordinate, Object.freeze({ ...aggregate, figures: figures.get(aggregate.targetType)!, keys: keys.get(aggregate.targetType)! })]));
}

function buildAggregateField(
  schema: GraphQLSchema,
  type: GraphQLObjectType,
  field: GraphQLField<unknown, unknown>,
  directive: AggregateDirective,
  known: { readonly storage: ReadonlyMap<string, TypeStorage>; readonly relations: ReadonlyMap<string, RelationField>; readonly roots: ReadonlyMap<string, RootField> },
  report: (message: string) => undefined,
): AggregateField | undefined {
  const listCoordinate = `${type.name}.${directive.of}`;
  const listDefinition = type.getFields()[directive.of];
  if (!listDefinition) return report(`@aggregate(of: "${directive.of}") names no field of ${type.name}; name a list field of ${type.name} (a root @list, or a reverse @join)`);
  const list = listOf(schema, type, listCoordinate, known);
  if (!list) {
    return report(
      `@aggregate(of: "${directive.of}"): ${listCoordinate} is not a root @list, a reverse @join (children holding the parent's key in foreignField, no limit) or the @inverse of a single reference; an aggregate is one $group over every child of such a list`,
    );
  }
  const names = aggregateTypeNames(list.targetType);
  const returned = getNamedType(field.type);
  if (!isNonNullType(field.type) || returned.name !== names.aggregate) return report(`@aggregate over ${listCoordinate} returns ${names.aggregate}!, a type docjoin generates; declare the field as ${field.name}: ${names.aggregate}!`);
  const conditions: RootCondition[] = [];
  for (const argument of field.args) {
    const condition = list.conditions.find((entry) => entry.argumentName === argument.name);
    const listArgument = listDefinition.args.find((entry) => entry.name === argument.name);
    if (!condition || !listArgument) {
      return report(`argument "${argument.name}" is not a filter argument of ${listCoordinate}; an aggregate takes only the list's filters (${list.conditions.map((entry) => entry.argumentName).join(', ') || 'it has none'}), never its page`);
    }
    if (String(argument.type) !== String(listArgument.type)) return report(`argument "${argument.name}" is ${String(argument.type)} but ${listCoordinate} takes ${String(listArgument.type)}; declare it as ${String(listArgument.type)}`);
    conditions.push(condition);
  }
  const target = known.storage.get(list.targetType);
  if (!target) return undefined; // its own problems are reported
  const figures = new Map<string, AggregateFigure>();
  for (const name of directive.fields) {
    const stored = target.fields.get(name);
    if (!stored) return report(`@aggregate(fields:) names ${list.targetType}.${name}, which does not exist; name a stored Int, Float, Long, Decimal or DateTime field of ${list.targetType}`);
    if (stored.kind !== 'stored') return report(`@aggregate(fields:) names ${stored.coordinate}, a relation; name a stored Int, Float, Long, Decimal or DateTime field of ${list.targetType}`);
    const scalar = stored.valueType.name;
    const numeric = NUMERIC_SCALARS.has(scalar);
    if (stored.valueType.isList || (!numeric && !DATE_SCALARS.has(scalar))) {
      return report(`@aggregate(fields:) names ${stored.coordinate}, which is ${stored.valueType.isList ? `a list of ${scalar}` : scalar}; sum, avg, min and max need a single Int, Float, Long, Decimal or DateTime value`);
    }
    figures.set(name, Object.freeze({ fieldName: name, path: stored.path, numeric, scalar }));
  }
  const keys = new Map<string, AggregateKey>();
  for (const name of directive.groupBy) {
    const key = groupKey(target, name, list.targetType, report);
    if (!key) return undefined;
    if (keys.has(key.value)) return report(`@aggregate(groupBy:) names two fields whose enum value is ${key.value}; keep one`);
    keys.set(key.value, key);
  }
  return {
    typeName: type.name,
    fieldName: field.name,
    coordinate: `${type.name}.${field.name}`,
    list: listCoordinate,
    targetType: list.targetType,
    collection: list.collection,
    parentLink: list.parentLink,
    conditions: Object.freeze(conditions),
    counter: list.parentLink ? counterOf(schema, type, listCoordinate, known.storage) : undefined,
    totals: list.parentLink ? totalsOf(schema, type, listCoordinate, known.storage) : new Map(),
    figures,
    keys,
  };
}

interface AggregatedList {
  readonly targetType: string;
  readonly collection: string;
  readonly conditions: readonly RootCondition[];
  readonly parentLink: AggregateField['parentLink'];
}

/**
 * The list an aggregate may cover: a root `@list`; a reverse join (children holding the parent's key)
 * that keeps every child (a `@join(limit:)` list holds the first few, which an aggregate would not match);
 * or the derived side of a two-way reference (`@inverse(of: "Task.owner")`), whose children are found
 * by the side that is the truth, when that side holds one key per child.
 */
function listOf(schema: GraphQLSchema, type: GraphQLObjectType, coordinate: string, known: { readonly relations: ReadonlyMap<string, RelationField>; readonly roots: ReadonlyMap<string, RootField> }): AggregatedList | undefined {
  const root = known.roots.get(coordinate);
  if (root?.kind === 'list') return { targetType: root.targetType, collection: root.collection, conditions: root.conditions, parentLink: undefined };
  const relation = known.relations.get(coordinate);
  const join = relation?.shapes.join;
  if (!relation || !join || !relation.isList || join.limit !== undefined) return undefined;
  const list = { targetType: relation.targetType, collection: join.collection, conditions: relation.listArguments.conditions };
  if (join.direction === 'byReference') return { ...list, parentLink: { localField: join.localField, foreignField: join.foreignField } };
  let inverse;
  try {
    inverse = readInverse(schema, type.getFields()[relation.fieldName]!);
  } catch {
    return undefined; // reported by the write model
  }
  const truth = inverse && known.relations.get(inverse.of);
  const truthJoin = truth?.shapes.join;
  if (!truth || truth.isList || !truthJoin || truthJoin.direction !== 'byKey' || truth.targetType !== type.name) return undefined;
  return { ...list, parentLink: { localField: truthJoin.foreignField, foreignField: truthJoin.localField } };
}

function groupKey(target: TypeStorage, name: string, targetType: string, report: (message: string) => undefined): AggregateKey | undefined {
  const field = target.fields.get(name);
  if (!field) return report(`@aggregate(groupBy:) names ${targetType}.${name}, which does not exist; name a stored field or a reference of ${targetType}`);
  const value = groupFieldValue(name);
  if (field.kind === 'stored') {
    if (field.valueType.isList) return report(`@aggregate(groupBy:) names ${field.coordinate}, a list; group by a field holding one value`);
    return { fieldName: name, value, path: field.path, references: undefined, scalar: field.valueType.name };
  }
  const join = field.shapes.join;
  if (field.isList || !join || join.direction !== 'byKey') {
    return report(`@aggregate(groupBy:) names ${field.coordinate}, a relation that keeps no single key in ${targetType}; group by a stored field or a reference declared with @join(localField:)`);
  }
  return { fieldName: name, value, path: join.localField, references: field.targetType, scalar: 'ID' };
}

/**
 * The stored `@total(of: list, field:)`s of the parent type, by the field they sum (the write model checks
 * them): those summing an Int or a Long, in every type over the children's collection, which add up
 * exactly, so their totals equal what MongoDB's `$sum` would compute (EXACT_SUMS). A Float's or a
 * Decimal's running total can differ from it.
 */
function totalsOf(schema: GraphQLSchema, type: GraphQLObjectType, list: string, storage: ReadonlyMap<string, TypeStorage>): AggregateField['totals'] {
  const totals = new Map<string, { coordinate: string; path: string; averages: boolean }>();
  const targetType = storage.get(type.name)?.fields.get(list.slice(list.indexOf('.') + 1));
  const target = targetType?.kind === 'relation' ? storage.get(targetType.targetType) : undefined;
  for (const { field, directive: total } of fieldsDeclaring(type, (field) => readTotal(schema, field))) {
    const stored = storage.get(type.name)?.fields.get(field.name);
    const summed = target?.fields.get(total.field);
    if (total.of !== list || stored?.kind !== 'stored' || summed?.kind !== 'stored' || !everyChildSumsExactly(storage, target!.collection, summed.path)) continue;
    totals.set(total.field, { coordinate: stored.coordinate, path: stored.path, averages: everyChildHolds(storage, target!.collection, summed.path) });
  }
  return totals;
}

/**
 * Whether every type over the children's `collection` that stores a value at `path` stores an Int or a
 * Long there: the total moves by what each of them writes, so one Float or Decimal among them makes it
 * a running sum that can differ from a fresh `$sum`. So does a value holding the path inside it that no
 * declared Int or Long pins down (a JSON scalar, a list, a snapshot copy).
 */
function everyChildSumsExactly(storage: ReadonlyMap<string, TypeStorage>, collection: string | undefined, path: string): boolean {
  const writers = [...storage.values()].filter((type) => type.collection !== undefined && type.collection === collection);
  return writers.every((type) => storesOnlyWholeNumbersAt(storage, type, path));
}

/** Whether whatever `type` stores at `path` (a stored field there, or an embedded object around it) is an Int or a Long. */
function storesOnlyWholeNumbersAt(storage: ReadonlyMap<string, TypeStorage>, type: TypeStorage, path: string): boolean {
  return [...type.fields.values()].every((field) => {
    if (field.kind === 'stored') return field.path === path ? EXACT_SUMS.has(field.valueType.name) : !path.startsWith(`${field.path}.`);
    const around = [field.shapes.embedded, field.shapes.snapshot].filter((shape) => shape !== undefined && (shape.path === path || path.startsWith(`${shape.path}.`)));
    if (around.length === 0) return true;
    const embedded = field.shapes.embedded;
    const target = storage.get(field.targetType);
    return around.length === 1 && embedded !== undefined && around[0] === embedded && !field.isList && target !== undefined && embedded.path !== path && storesOnlyWholeNumbersAt(storage, target, path.slice(embedded.path.length + 1));
  });
}

/**
 * Whether every type over the children's `collection` declares a non-null field at `path`: the counter
 * counts the documents each of them writes, so only then is the total over the counter their mean.
 */
function everyChildHolds(storage: ReadonlyMap<string, TypeStorage>, collection: string | undefined, path: string): boolean {
  const writers = [...storage.values()].filter((type) => type.collection !== undefined && type.collection === collection);
  return writers.every((type) => [...type.fields.values()].some((field) => field.kind === 'stored' && field.path === path && field.valueType.nonNull));
}

/** The stored `@counter(of: list)` of the parent type, if it declares one (the write model checks it). */
function counterOf(schema: GraphQLSchema, type: GraphQLObjectType, list: string, storage: ReadonlyMap<string, TypeStorage>): AggregateField['counter'] {
  for (const { field, directive: counter } of fieldsDeclaring(type, (field) => readCounter(schema, field))) {
    const stored = storage.get(type.name)?.fields.get(field.name);
    if (counter.of === list && stored?.kind === 'stored') return { coordinate: stored.coordinate, path: stored.path };
  }
  return undefined;
}

/** The fields of `type` with the write-rule directive `read` finds on them; a malformed one is skipped (the write model reports it). */
function fieldsDeclaring<T>(type: GraphQLObjectType, read: (field: GraphQLField<unknown, unknown>) => T | undefined): Array<{ field: GraphQLField<unknown, unknown>; directive: T }> {
  return Object.values(type.getFields()).flatMap((field) => {
    try {
      const directive = read(field);
      return directive === undefined ? [] : [{ field, directive }];
    } catch {
      return [];
    }
  });
}
