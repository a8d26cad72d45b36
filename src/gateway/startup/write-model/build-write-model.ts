import { makeExecutableSchema } from '@graphql-tools/schema';
import { getNamedType, isObjectType, type GraphQLField, type GraphQLObjectType, type GraphQLSchema } from 'graphql';
import { StorageConfigError } from '../../errors/internal-errors';
import { buildStorageMap } from '../storage-map/build-storage-map';
import type { JoinShape, RelationField, StorageMap } from '../storage-map/storage-map-types';
import { readCounter, readInverse, readTotal } from '../storage-map/read-directives';
import { typeListingKeys } from '../storage-map/holds-one-key';
import { allStoredPathsOf } from '../storage-map/stored-paths';
import { pathsOverlap } from '../../documents/read-path';
import { NUMERIC_SCALARS, sumType } from '../aggregates/aggregate-names';
import type { BoundedArray, CounterRule, CopiedField, InverseRule, PathSegment, SnapshotLocation, TotalRule, WriteModel } from './write-model-types';

/** Embedded copies nest rarely; the walk stops here so a recursive type cannot loop. */
const MAX_EMBEDDING_DEPTH = 4;

/** SDL → storage map → write model, for tools that start from the schema files (reconcile). */
export function buildWriteModelFromSdl(typeDefs: readonly string[]): WriteModel {
  const schema = makeExecutableSchema({ typeDefs: [...typeDefs] });
  return buildWriteModel(schema, buildStorageMap(schema));
}

/**
 * Every copy the storage map declares, with the rule that keeps it true: snapshots (and snapshots inside
 * embedded copies), bounded arrays, and the `@counter` / `@total` / `@inverse` write rules. The write rules are
 * validated against the storage map; all problems are thrown together as a StorageConfigError naming
 * `Type.field` and the fix.
 */
export function buildWriteModel(schema: GraphQLSchema, storageMap: StorageMap): WriteModel {
  const { model, problems } = collectWriteModel(schema, storageMap);
  if (problems.length > 0) throw new StorageConfigError(problems);
  return model;
}

/** The write model of the rules that are valid, and the problems of the others (see collectStorageMap). */
export function collectWriteModel(schema: GraphQLSchema, storageMap: StorageMap): { model: WriteModel; problems: string[] } {
  const problems: string[] = [];
  const inverses = readInverses(schema, storageMap, problems);
  const counters = readCounters(schema, storageMap, inverses, problems);
  const totals = readTotals(schema, storageMap, problems);
  const boundedArrays = findBoundedArrays(storageMap);
  for (const array of boundedArrays) {
    const listing = typeListingKeys(storageMap, array.childCollection, array.childKey);
    if (listing) {
      problems.push(
        `${array.coordinate}: @embedded keeps the children keyed by "${array.childKey}" in each parent, where ${listing} holds a list: the writes that keep it move a child in one parent's copy; embed a reverse join whose children hold one parent key, or read ${array.coordinate} by @join alone`,
      );
    }
  }
  const model: WriteModel = Object.freeze({
    storageMap,
    snapshots: Object.freeze(findSnapshotLocations(storageMap, boundedArrays)),
    boundedArrays: Object.freeze(boundedArrays),
    inverses: Object.freeze(inverses),
    counters: Object.freeze(counters),
    totals: Object.freeze(totals),
  });
  // Copies of a counter take its increments by the parent's _id (planCounterCopyUpdates).
  for (const counter of counters) {
    if (counter.source.kind !== 'children' || counter.source.parentKey === '_id') continue;
    for (const { location } of counterCopies(model, counter)) {
      problems.push(`${location.coordinate}: @snapshot copies ${counter.coordinate}, a counter of children keyed by "${counter.source.parentKey}", not _id; its copies cannot follow its increments, so leave it out of the snapshot's fields`);
    }
  }
  // A copy of a total would have to follow every child's value; none is kept.
  for (const total of totals) {
    for (const { location } of derivedCopies(model, total)) {
      problems.push(`${location.coordinate}: @snapshot copies ${total.coordinate}, a @total, whose copies docjoin does not keep; leave it out of the snapshot's fields`);
    }
  }
  problems.push(...wholeCopiesOfDerivedValues(model));
  problems.push(...snapshotsOfCopies(model));
  problems.push(...arraysSortedByCopies(model));
  return { model, problems };
}

/**
 * A bounded array ordered by a field its children copy from another type: that type's update rewrites
 * the copies, in the children and in the array alike, but picks and orders no child again, so the
 * array would hold the wrong children in the wrong order until reconcile rebuilds it.
 */
function arraysSortedByCopies(model: WriteModel): string[] {
  return model.boundedArrays.flatMap((array) =>
    array.sort.flatMap(({ path }) => {
      const copy = model.snapshots.find((location) => {
        if (location.collection !== array.childCollection || location.segments.some((segment) => segment.isArray)) return false;
        const copyPath = location.segments.map((segment) => segment.path).join('.');
        return path.startsWith(`${copyPath}.`) && path !== `${copyPath}.${location.key}`;
      });
      if (!copy) return [];
      return [
        `${array.coordinate}: @join(sort:) orders the array by "${path}", inside ${copy.coordinate}'s copy of ${copy.sourceType}: an update of a ${copy.sourceType} rewrites the copies but does not pick or order the array's ${array.childType}s again; sort it by a field ${array.childType} stores itself, or read ${array.coordinate} by @join alone`,
      ];
    }),
  );
}

/**
 * A snapshot copying a field its source stores inside a copy the writes keep (another snapshot's copy,
 * a bounded array, an inverse list: `managerName` at "manager.name", inside `Person.manager`): a write
 * moves that copy in the source's own documents only, never on into these, so they would go stale. So
 * would a total summing such a field of its children (`unitPrice` at "product.price").
 */
function snapshotsOfCopies(model: WriteModel): string[] {
  const kept = [
    ...model.snapshots.map((location) => ({ coordinate: location.coordinate, collection: location.collection, path: copyPathOf(location), kind: 'a @snapshot copy' })),
    ...model.boundedArrays.map((rule) => ({ coordinate: rule.coordinate, collection: rule.collection, path: rule.path, kind: 'a bounded array' })),
    ...model.inverses.map((rule) => ({ coordinate: rule.coordinate, collection: rule.collection, path: rule.path, kind: 'the @inverse side of a two-way reference' })),
  ];
  const keptAt = (collection: string, path: string) => kept.find((copy) => copy.collection === collection && pathsOverlap(path, copy.path));
  const snapshots = model.snapshots.flatMap((location) =>
    location.fields.flatMap((field) => {
      const inside = keptAt(location.sourceCollection, field.sourcePath);
      if (!inside) return [];
      return [
        `${location.coordinate}: @snapshot copies ${location.sourceType}.${field.name}, stored at "${field.sourcePath}" inside ${inside.coordinate}, ${inside.kind}, which the writes keep in the ${location.sourceCollection} documents only, so its copies here would never move; leave ${field.name} out of the snapshot's fields (a read of it joins)`,
      ];
    }),
  );
  // A total moves with its children's writes only: a copy inside them moved by its own source's writes would leave it behind.
  const totals = model.totals.flatMap((total) => {
    const inside = keptAt(total.childCollection, total.summedPath);
    if (!inside) return [];
    return [
      `${total.coordinate}: @total sums ${total.childType}.${total.summedField}, stored at "${total.summedPath}" inside ${inside.coordinate}, ${inside.kind}, which a write to its source moves without moving this total; sum a field ${total.childType} stores itself`,
    ];
  });
  return [...snapshots, ...totals];
}

/**
 * An @embedded field keeping whole documents of a type (`Bundle.featured: Account`, a bounded array of
 * comments) that hold values the writes derive (a counter, a total, an inverse list, a bounded array):
 * those are kept in the type's own collection only, so the copies' would never move. Matched by
 * collection and path, so a second type over the same collection declaring the counter's field as a
 * plain one is caught too.
 */
function wholeCopiesOfDerivedValues(model: WriteModel): string[] {
  const derived = [
    ...model.counters.map((rule) => ({ rule, kind: 'a @counter' })),
    ...model.totals.map((rule) => ({ rule, kind: 'a @total' })),
    ...model.inverses.map((rule) => ({ rule, kind: 'the @inverse side of a two-way reference' })),
    ...model.boundedArrays.map((rule) => ({ rule, kind: 'a bounded array' })),
  ];
  const problems: string[] = [];
  for (const relation of model.storageMap.relations.values()) {
    if (!relation.shapes.embedded) continue;
    const target = model.storageMap.types.get(relation.targetType);
    if (target?.collection === undefined) continue;
    const copiedPaths = allStoredPathsOf(target);
    const found = derived.find(({ rule }) => rule.collection === target.collection && copiedPaths.some((path) => pathsOverlap(path, rule.path)));
    if (!found) continue;
    const { rule, kind } = found;
    const instead = relation.shapes.join ? `read ${relation.coordinate} by @join alone` : `store the ${relation.targetType}'s id and read it with @join`;
    const keptIn = rule.coordinate.startsWith(`${relation.targetType}.`) ? `${relation.targetType}'s own documents` : `the ${target.collection} collection's documents`;
    const copied = rule.coordinate.startsWith(`${relation.targetType}.`) ? rule.coordinate : `${rule.coordinate} (at "${rule.path}", which ${relation.targetType} declares too)`;
    problems.push(
      `${relation.coordinate}: @embedded keeps whole ${relation.targetType} documents, and ${copied} is ${kind}, which the writes keep only in ${keptIn}, so its copy in each ${relation.typeName} would never move; embed a type without it, or ${instead}`,
    );
  }
  return problems;
}

function collectionOf(storageMap: StorageMap, typeName: string): string | undefined {
  return storageMap.types.get(typeName)?.collection;
}

/** Walks every collection type and, through embedded shapes, the types embedded in it. */
function findSnapshotLocations(storageMap: StorageMap, boundedArrays: readonly BoundedArray[]): SnapshotLocation[] {
  const locations: SnapshotLocation[] = [];
  const walk = (typeName: string, collection: string, prefix: readonly PathSegment[], coordinatePrefix: string | undefined, seen: ReadonlySet<string>) => {
    const type = storageMap.types.get(typeName);
    if (!type || seen.size > MAX_EMBEDDING_DEPTH) return;
    for (const field of type.fields.values()) {
      if (field.kind !== 'relation') continue;
      const coordinate = coordinatePrefix === undefined ? field.coordinate : `${coordinatePrefix}.${field.fieldName}`;
      const snapshot = field.shapes.snapshot;
      if (snapshot) {
        const source = storageMap.types.get(field.targetType);
        const sourceCollection = source?.collection;
        if (source && sourceCollection !== undefined) {
          const fields: CopiedField[] = [];
          for (const name of snapshot.fields) {
            const stored = source.fields.get(name);
            if (stored?.kind === 'stored' && !stored.isId && name !== snapshot.key) fields.push({ name, sourcePath: stored.path });
          }
          const segments = [...prefix, { path: snapshot.path, isArray: field.isList }];
          locations.push({
            coordinate,
            field: field.coordinate,
            required: field.nonNull,
            collection,
            sourceType: field.targetType,
            sourceCollection,
            segments,
            key: snapshot.key,
            fields,
            inSourceDocument: copiesOnlyInSource(storageMap, boundedArrays, collection, field.targetType, segments, snapshot.key),
          });
        }
      }
      const embedded = field.shapes.embedded;
      if (embedded && !seen.has(field.targetType)) {
        walk(field.targetType, collection, [...prefix, { path: embedded.path, isArray: field.isList }], coordinate, new Set([...seen, field.targetType]));
      }
    }
  };
  for (const type of storageMap.types.values()) {
    if (type.collection !== undefined) walk(type.typeName, type.collection, [], undefined, new Set([type.typeName]));
  }
  return locations;
}

/**
 * Whether every copy at `segments` lives in the source document itself: the first segment is a bounded
 * array of the source type's own children (`Host.recentLogs`: log messages whose `host.id` is the
 * host), and the copy's key is that same back-reference (`recentLogs.$.host.id`). Each element then
 * copies its own parent, so no other document holds a copy.
 */
function copiesOnlyInSource(
  storageMap: StorageMap,
  boundedArrays: readonly BoundedArray[],
  collection: string,
  sourceType: string,
  segments: readonly PathSegment[],
  key: string,
): boolean {
  const [first, ...below] = segments;
  if (!first?.isArray || below.length === 0) return false;
  const keyBelow = [...below.map((segment) => segment.path), key].join('.');
  return boundedArrays.some(
    (array) =>
      array.collection === collection &&
      array.path === first.path &&
      array.parentKey === '_id' &&
      array.childKey === keyBelow &&
      storageMap.relations.get(array.coordinate)?.typeName === sourceType,
  );
}

function findBoundedArrays(storageMap: StorageMap): BoundedArray[] {
  const arrays: BoundedArray[] = [];
  for (const field of storageMap.relations.values()) {
    const { embedded, join } = field.shapes;
    const collection = collectionOf(storageMap, field.typeName);
    if (!embedded || !join || join.direction !== 'byReference' || collection === undefined || !field.isList) continue;
    arrays.push({
      coordinate: field.coordinate,
      collection,
      path: embedded.path,
      parentKey: join.localField,
      childType: field.targetType,
      childCollection: join.collection,
      childKey: join.foreignField,
      sort: join.sort,
      limit: join.limit,
    });
  }
  return arrays;
}

function objectTypes(schema: GraphQLSchema): GraphQLObjectType[] {
  return Object.values(schema.getTypeMap()).filter((type): type is GraphQLObjectType => isObjectType(type) && !type.name.startsWith('__'));
}

/**
 * Every field of an object type carrying the directive `read` finds, with its coordinate; a directive
 * whose arguments do not read is a problem naming the field.
 */
function fieldsDeclaring<T>(schema: GraphQLSchema, problems: string[], read: (field: GraphQLField<unknown, unknown>) => T | undefined): Array<{ type: GraphQLObjectType; field: GraphQLField<unknown, unknown>; coordinate: string; directive: T }> {
  return objectTypes(schema).flatMap((type) =>
    Object.values(type.getFields()).flatMap((field) => {
      const coordinate = `${type.name}.${field.name}`;
      const directive = tryRead(problems, coordinate, () => read(field));
      return directive === undefined ? [] : [{ type, field, coordinate, directive }];
    }),
  );
}

function readInverses(schema: GraphQLSchema, storageMap: StorageMap, problems: string[]): InverseRule[] {
  const rules: InverseRule[] = [];
  for (const { type, coordinate, directive } of fieldsDeclaring(schema, problems, (field) => readInverse(schema, field))) {
    const report = (message: string) => problems.push(`${coordinate}: @inverse(of: "${directive.of}") ${message}`);
    const derived = storageMap.relations.get(coordinate);
    const derivedJoin = derived?.shapes.join;
    const collection = collectionOf(storageMap, type.name);
    if (!derived || !derivedJoin || derivedJoin.direction !== 'byKey' || !derived.isList || collection === undefined) {
      report(`needs a list field of a @collection type that joins by an array of ids it keeps, e.g. tasks: [Task!]! @join(localField: "taskIds")`);
      continue;
    }
    const truth = storageMap.relations.get(directive.of);
    const truthJoin = truth?.shapes.join;
    if (!truth || !truthJoin) {
      report(`names no relation field with a @join; name the field that holds the truth as "Type.field", e.g. "Task.owner"`);
      continue;
    }
    if (truth.typeName !== derived.targetType || truth.targetType !== type.name) {
      report(`must name a field of ${derived.targetType} that returns ${type.name}, but ${directive.of} is a field of ${truth.typeName} returning ${truth.targetType}`);
      continue;
    }
    if (truthJoin.direction !== 'byKey') {
      report(`needs ${directive.of} to keep ${type.name} ids itself (a @join by _id), but it is a reverse join; declare the inverse on the side that keeps the ids`);
      continue;
    }
    rules.push({
      coordinate,
      collection,
      path: derivedJoin.localField,
      of: directive.of,
      truthType: truth.typeName,
      truthCollection: derivedJoin.collection,
      truthPath: truthJoin.localField,
    });
  }
  return rules;
}

function readCounters(schema: GraphQLSchema, storageMap: StorageMap, inverses: readonly InverseRule[], problems: string[]): CounterRule[] {
  const rules: CounterRule[] = [];
  for (const { type, field, coordinate, directive } of fieldsDeclaring(schema, problems, (field) => readCounter(schema, field))) {
    const report = (message: string) => problems.push(`${coordinate}: @counter(of: "${directive.of}") ${message}`);
    const stored = storageMap.types.get(type.name)?.fields.get(field.name);
    const collection = collectionOf(storageMap, type.name);
    if (stored?.kind !== 'stored' || getNamedType(field.type).name !== 'Int' || collection === undefined) {
      report('must be on an Int field stored in a @collection type');
      continue;
    }
    const counted: RelationField | undefined = storageMap.relations.get(directive.of);
    if (!counted || counted.typeName !== type.name || !counted.isList) {
      report(`must name a list relation of ${type.name} itself, as "${type.name}.field"`);
      continue;
    }
    const join: JoinShape | undefined = counted.shapes.join;
    const inverse = inverses.find((rule) => rule.coordinate === directive.of);
    if (join?.direction === 'byReference') {
      const listing = typeListingKeys(storageMap, join.collection, join.foreignField);
      if (listing) {
        report(`counts children keyed by "${join.foreignField}", where ${listing} holds a list: the writes that keep a counter add one per child to one parent; count a reverse join whose children hold one parent key`);
        continue;
      }
      rules.push({ coordinate, collection, path: stored.path, of: directive.of, source: { kind: 'children', childCollection: join.collection, childKey: join.foreignField, parentKey: join.localField } });
    } else if (inverse) {
      rules.push({ coordinate, collection, path: stored.path, of: directive.of, source: { kind: 'inverse', inverse } });
    } else {
      report(`counts ${directive.of}, which no write can track: count a reverse @join (children pointing here), or declare ${directive.of} @inverse(of: "...") so writes to the other side keep it`);
    }
  }
  return rules;
}

/**
 * The `@total(of:, field:)` rules: a field of a `@collection` type summing a stored number of the
 * children of one of its reverse joins, typed as the list's aggregate `sum` of it is (sumType).
 */
function readTotals(schema: GraphQLSchema, storageMap: StorageMap, problems: string[]): TotalRule[] {
  const rules: TotalRule[] = [];
  for (const { type, field, coordinate, directive } of fieldsDeclaring(schema, problems, (field) => readTotal(schema, field))) {
    const report = (message: string) => problems.push(`${coordinate}: @total(of: "${directive.of}", field: "${directive.field}") ${message}`);
    const stored = storageMap.types.get(type.name)?.fields.get(field.name);
    const collection = collectionOf(storageMap, type.name);
    if (stored?.kind !== 'stored' || stored.isId || stored.valueType.isList || collection === undefined) {
      report('must be on a single-valued field stored in a @collection type');
      continue;
    }
    const summed: RelationField | undefined = storageMap.relations.get(directive.of);
    const join = summed?.shapes.join;
    if (!summed || summed.typeName !== type.name || !summed.isList || join?.direction !== 'byReference') {
      report(`must name a reverse @join list of ${type.name} itself (children that hold its key), as "${type.name}.field"`);
      continue;
    }
    const childType = storageMap.types.get(summed.targetType);
    const child = childType?.fields.get(directive.field);
    if (childType?.collection === undefined) {
      report(`sums ${summed.targetType}, which has no @collection: a total adds up documents its writes insert, update and delete; total a list of a @collection type`);
      continue;
    }
    if (childType.collection !== join.collection) {
      report(`sums ${summed.targetType} documents joined from "${join.collection}", not ${summed.targetType}'s own collection, where its writes go; join from ${summed.targetType}'s collection`);
      continue;
    }
    if (child?.kind !== 'stored' || child.valueType.isList || !NUMERIC_SCALARS.has(child.valueType.name)) {
      report(`must name a stored Int, Float, Long or Decimal field of ${summed.targetType}; ${summed.targetType}.${directive.field} is not one`);
      continue;
    }
    const listing = typeListingKeys(storageMap, join.collection, join.foreignField);
    if (listing) {
      report(`sums children keyed by "${join.foreignField}", where ${listing} holds a list: a child listing several parents would be added to each; total a reverse join whose children hold one parent key`);
      continue;
    }
    const scalar = sumType(child.valueType.name);
    if (stored.valueType.name !== scalar) {
      report(`sums ${child.coordinate}, ${child.valueType.name === 'Int' ? 'an' : 'a'} ${child.valueType.name}: declare ${coordinate} as ${scalar}${stored.valueType.nonNull ? '!' : ''}, the type of its aggregate sum`);
      continue;
    }
    rules.push({
      coordinate,
      collection,
      path: stored.path,
      of: directive.of,
      childType: summed.targetType,
      childCollection: join.collection,
      childKey: join.foreignField,
      parentKey: join.localField,
      summedField: directive.field,
      summedPath: child.path,
      summedScalar: child.valueType.name,
      scalar,
    });
  }
  return rules;
}

function tryRead<T>(problems: string[], coordinate: string, read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    problems.push(`${coordinate}: ${(error as Error).message}`);
    return undefined;
  }
}

/** Where a snapshot location's copies are, from the document root: `info.author`. */
export function copyPathOf(location: SnapshotLocation): string {
  return location.segments.map((segment) => segment.path).join('.');
}

/** The snapshot locations copying `counter` (`Book.authors` copying `Author.countOfBooks`), with the copied field's name. */
export function counterCopies(model: WriteModel, counter: CounterRule): Array<{ location: SnapshotLocation; name: string }> {
  return derivedCopies(model, counter);
}

/** The snapshot locations copying a derived field (a counter's, a total's), with the copied field's name. */
function derivedCopies(model: WriteModel, rule: { readonly coordinate: string; readonly path: string }): Array<{ location: SnapshotLocation; name: string }> {
  const typeName = rule.coordinate.slice(0, rule.coordinate.indexOf('.'));
  return model.snapshots.flatMap((location) => {
    const copied = location.sourceType === typeName ? location.fields.find((field) => field.sourcePath === rule.path) : undefined;
    return copied ? [{ location, name: copied.name }] : [];
  });
}
