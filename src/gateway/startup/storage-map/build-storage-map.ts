import { declaredFirst, firstDefaultProblem } from './first-default';
import {
  getNamedType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isCompositeType,
  isEnumType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';
import { StorageConfigError } from '../../errors/internal-errors';
import { buildRootFields } from './build-root-fields';
import { readConnectionTypes, type ConnectionTypes } from './connection-type';
import { aggregateValueTypes, buildAggregateFields, declaresAggregate } from './build-aggregate-fields';
import { condition, orderByArgument } from './list-arguments';
import { parseSort } from './parse-sort';
import { cursorSortProblems } from './check-cursor-sorts';
import { readCollection, readEmbedded, readJoin, readPath, readRead, readSnapshot, type JoinDirective } from './read-directives';
import { storedPathProblem } from './stored-path-problem';
import { misplacedGeneratorProblems } from './misplaced-generator';
import {
  NO_LIST_ARGUMENTS,
  type EmbeddedShape,
  type FieldStorage,
  type JoinShape,
  type ListOrder,
  type PageArguments,
  type ReadStrategy,
  type RelationField,
  type RootCondition,
  type SnapshotShape,
  type StorageMap,
  type TypeStorage,
} from './storage-map-types';

const PAGE_ARGUMENTS = ['first', 'after', 'before'] as const;
type PageArgumentName = (typeof PAGE_ARGUMENTS)[number];

/**
 * Parses and statically validates every storage directive of `schema` into a StorageMap.
 * All problems are collected and thrown together as one StorageConfigError, each naming `Type.field`
 * and the fix. Root operation types are skipped here: their fields are hand-written resolvers, or
 * generated from `@find` / `@list` (build-root-fields.ts).
 */
export function buildStorageMap(schema: GraphQLSchema): StorageMap {
  const { storageMap, problems } = collectStorageMap(schema);
  if (problems.length > 0) throw new StorageConfigError(problems);
  return storageMap;
}

/**
 * The storage map of every field whose directives are valid, and the problems of the others, so that the
 * startup can go on checking what it can (the write model, the database) and report everything at once.
 */
export function collectStorageMap(schema: GraphQLSchema): { storageMap: StorageMap; problems: string[] } {
  const problems: string[] = [];
  const rootTypes = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].filter((t) => t));
  const collections = new Map<string, string | undefined>();
  const candidates = Object.values(schema.getTypeMap()).filter(
    (type): type is GraphQLObjectType => isObjectType(type) && !type.name.startsWith('__') && !rootTypes.has(type),
  );
  // Connection, edge and page-info types are resolved by docjoin, not stored.
  const connectionTypes = readConnectionTypes(candidates, problems);
  // So are the types of the figures an `@aggregate` field returns.
  const aggregateTypes = aggregateValueTypes(schema);
  const objectTypes = candidates.filter((type) => !connectionTypes.plumbing.has(type.name) && !aggregateTypes.has(type.name));
  for (const type of objectTypes) collections.set(type.name, readDirective(problems, type.name, () => readCollection(schema, type))?.name);

  const types = new Map<string, TypeStorage>();
  const relations = new Map<string, RelationField>();
  // Reverse-join filters name the target's fields: read after every type's storage is built.
  const pending = new Map<string, GraphQLArgument[]>();
  const refused = new Set<string>();
  for (const type of objectTypes) {
    const fields = new Map<string, FieldStorage>();
    for (const field of Object.values(type.getFields())) {
      if (declaresAggregate(schema, field)) continue;
      const before = problems.length;
      const storage = buildField(schema, type, field, { collections, connectionTypes }, problems, pending);
      // Refused with a problem of its own (a malformed connection type's is reported elsewhere), built or not (a misspelt snapshot field).
      if (problems.length > before) refused.add(`${type.name}.${field.name}`);
      if (!storage) continue;
      fields.set(field.name, storage);
      if (storage.kind === 'relation') relations.set(storage.coordinate, storage);
    }
    types.set(type.name, Object.freeze({ typeName: type.name, collection: collections.get(type.name), fields }));
  }
  for (const [coordinate, args] of pending) {
    const before = problems.length;
    const field = withListArguments(schema, relations.get(coordinate)!, args, types, problems, refused);
    if (!field) {
      if (problems.length > before) refused.add(coordinate);
      continue;
    }
    relations.set(coordinate, field);
    (types.get(field.typeName)!.fields as Map<string, FieldStorage>).set(field.fieldName, field);
  }
  const roots = buildRootFields(schema, types, connectionTypes, problems, refused);
  const queryType = schema.getQueryType();
  const aggregates = buildAggregateFields(schema, [...(queryType ? [queryType] : []), ...objectTypes], { storage: types, relations, roots, refused }, problems);
  const storageMap: StorageMap = Object.freeze({ types, relations, roots, aggregates, connections: connectionTypes.connections, refused });
  problems.push(...cursorSortProblems(schema, storageMap));
  return { storageMap, problems };
}

/** Whether a field reads its document's `_id`: a `@collection` type's `id: ID` without `@path`, or any field with `@path(path: "_id")`. */
function readsDocumentId(field: GraphQLField<unknown, unknown>, path: string | undefined, inCollection: boolean): boolean {
  return path === '_id' || (path === undefined && inCollection && field.name === 'id' && getNamedType(field.type).name === 'ID');
}

function readDirective<T>(problems: string[], where: string, read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    problems.push(`${where}: ${(error as Error).message}`);
    return undefined;
  }
}

function buildField(
  schema: GraphQLSchema,
  type: GraphQLObjectType,
  field: GraphQLField<unknown, unknown>,
  known: { readonly collections: ReadonlyMap<string, string | undefined>; readonly connectionTypes: ConnectionTypes },
  problems: string[],
  pending: Map<string, GraphQLArgument[]>,
): FieldStorage | undefined {
  const { collections } = known;
  const coordinate = `${type.name}.${field.name}`;
  const report = (message: string): undefined => {
    problems.push(`${coordinate}: ${message}`);
    return undefined;
  };
  const read = <T>(fn: () => T) => readDirective(problems, coordinate, fn);
  const embedded = read(() => readEmbedded(schema, field));
  const join = read(() => readJoin(schema, field));
  const snapshot = read(() => readSnapshot(schema, field));
  const readStrategy = read(() => readRead(schema, field));
  const path = read(() => readPath(schema, field));
  const returned = getNamedType(field.type);
  const connection = known.connectionTypes.connections.get(returned.name);
  // A malformed connection type is reported on its own.
  if (!connection && known.connectionTypes.plumbing.has(returned.name)) return undefined;
  // A connection lists its node type; the relation's target is that type.
  const target = connection ? schema.getType(connection.nodeType)! : returned;

  for (const [directive, given] of [
    ['@path(path:', path?.path],
    ['@embedded(path:', embedded?.path],
    ['@snapshot(path:', snapshot?.path],
    ['@join(localField:', join?.localField],
    ['@join(foreignField:', join?.foreignField],
  ] as const) {
    const problem = given === undefined ? undefined : storedPathProblem(given);
    if (problem) return report(`${directive} "${given}") ${problem}; name the stored field by its dotted path, e.g. "meta.source"`);
  }
  // MongoDB's equality reads `credits.0.tagIds` as the first credit's, where docjoin matches children to parents by field names.
  for (const [side, given] of [['localField', join?.localField], ['foreignField', join?.foreignField]] as const) {
    const position = given?.split('.').find((segment) => /^\d+$/.test(segment));
    if (position !== undefined) {
      return report(`@join(${side}: "${given}") has a numeric segment "${position}", which MongoDB reads as an array position where the value is an array, and docjoin matches join keys by field names; store the key at a path of field names`);
    }
  }
  // `id` is the GraphQL name of a document's `_id`; a join names stored paths.
  for (const [side, given, owner] of [['localField', join?.localField, type], ['foreignField', join?.foreignField, target]] as const) {
    if (given === 'id' && isObjectType(owner) && collections.get(owner.name) !== undefined && !storesAtPath(schema, owner, 'id')) {
      return report(`@join(${side}: "id") names a stored field "id", which no ${owner.name} field is stored at: ${owner.name}'s id is stored as "_id", so write ${side}: "_id"${side === 'foreignField' ? ' (or leave it out: "_id" is its default)' : ''}`);
    }
  }

  if (!embedded && !join && !snapshot) {
    if (readStrategy) return report(`@read(strategy: ${readStrategy.strategy}) needs the shape it names; declare @${readStrategy.strategy.toLowerCase()}`);
    if (isCompositeType(target)) {
      // A generating directive on a field of another type than its root: what it says explains what is missing.
      const misplaced = misplacedGeneratorProblems(schema, type, field);
      if (misplaced.length > 0) {
        problems.push(...misplaced);
        return undefined;
      }
      return report(`returns ${returned.name} but declares no storage shape; add @embedded (the data is inside the parent document) or @join(localField: "...") (it lives in its own collection)`);
    }
    const isId = readsDocumentId(field, path?.path, collections.get(type.name) !== undefined);
    return Object.freeze({
      kind: 'stored',
      typeName: type.name,
      fieldName: field.name,
      coordinate,
      path: path?.path ?? (isId ? '_id' : field.name),
      isId,
      valueType: Object.freeze({ name: target.name, isEnum: isEnumType(target), isList: isList(field.type), nonNull: isNonNullType(field.type), ...(listDepth(field.type) > 1 && { listDepth: listDepth(field.type) }) }),
    });
  }
  if (path) return report(`@path can't be combined with a storage shape; use @embedded(path: "${path.path}") or @snapshot(path: "${path.path}") instead`);

  const shapes: { embedded?: EmbeddedShape; join?: JoinShape; snapshot?: SnapshotShape } = {};
  if (embedded) shapes.embedded = Object.freeze({ kind: 'embedded', path: embedded.path ?? field.name });
  if (join) {
    const shape = buildJoinShape(schema, join, target, collections, report);
    if (shape) shapes.join = shape;
  }
  if (snapshot) {
    if (!join) return report(`@snapshot requires a @join shape to fall back to when the selection asks for fields outside the snapshot; add @join(localField: "${snapshot.path}.${snapshot.key}")`);
    if (!isObjectType(target)) return report(`@snapshot needs an object type, but ${target.name} is not one`);
    const targetFields = target.getFields();
    for (const name of snapshot.fields) {
      const targetField = targetFields[name];
      if (!targetField) report(`@snapshot(fields:) names "${name}", which is not a field of ${target.name}; its fields are ${Object.keys(targetFields).join(', ')}`);
      else if (!isLeafType(getNamedType(targetField.type))) report(`@snapshot(fields:) names "${name}", a relation of ${target.name}; a snapshot can only copy scalar fields`);
    }
    const keyPath = `${snapshot.path}.${snapshot.key}`;
    // A miss joins by the key read from inside the copy; so do fan-out and reconcile.
    if (join.localField !== keyPath) {
      // The join may name the copy's key where the snapshot's path is the one misspelt.
      const joinedCopy = join.localField.endsWith(`.${snapshot.key}`) ? join.localField.slice(0, -snapshot.key.length - 1) : undefined;
      const orPath = joinedCopy === undefined ? '' : `, or @snapshot(path: "${joinedCopy}") if the copies are kept there`;
      return report(
        `@snapshot keeps its key at "${keyPath}", but the fallback @join(localField: "${join.localField}") names another path; a snapshot miss joins by the key inside the copy, so use @join(localField: "${keyPath}") and keep the key in each copy (or set @snapshot(key:) to the copy's key field)${orPath}`,
      );
    }
    const keyField = targetFields[snapshot.key];
    if (keyField && !readsDocumentId(keyField, readPath(schema, keyField)?.path, collections.get(target.name) !== undefined)) {
      return report(
        `@snapshot(key: "${snapshot.key}") names ${target.name}.${snapshot.key}, which does not read ${target.name}'s _id; each copy keeps the _id under its key, so key it by the field that reads _id (a @collection type's id: ID, or one with @path(path: "_id")) or by a name ${target.name} has no field under`,
      );
    }
    // Writes refresh a copy, reconcile checks it and access rules judge it by the id it keeps: the key must be the target's _id.
    if (shapes.join && shapes.join.foreignField !== '_id') {
      return report(
        `@snapshot keeps its key at "${keyPath}", but the fallback @join(foreignField: "${shapes.join.foreignField}") matches ${target.name} by another field; writes, reconcile and access rules find a copy by the ${target.name} id it keeps, so join by the id (leave out foreignField) and keep each ${target.name}'s id at "${keyPath}"`,
      );
    }
    const idField = Object.values(targetFields).find((candidate) => candidate.name === 'id' && getNamedType(candidate.type).name === 'ID');
    if (idField && !snapshot.fields.includes(idField.name)) {
      return report(`@snapshot(fields:) must include "${idField.name}", the key each copy keeps at "${keyPath}"; add "${idField.name}" to fields`);
    }
    if (shapes.join) shapes.snapshot = Object.freeze({ kind: 'snapshot', path: snapshot.path, fields: Object.freeze([...snapshot.fields]), key: snapshot.key, fallback: shapes.join });
  }

  const declared: Array<keyof RelationField['shapes']> = [];
  if (embedded) declared.push('embedded');
  if (join) declared.push('join');
  if (snapshot) declared.push('snapshot');
  let defaultStrategy: ReadStrategy;
  if (readStrategy) {
    const named = readStrategy.strategy.toLowerCase() as ReadStrategy;
    if (named === 'lookup') {
      if (!join) return report(`@read(strategy: LOOKUP) reads a @join inside its parent's command, and the field declares none; add @join, or read it with ${declared[0]!.toUpperCase()}`);
      if (connection) return report(`@read(strategy: LOOKUP) cannot read a connection (its pages are cursors, its totalCount a count); remove @read, the connection is read by JOIN`);
    } else if (!declared.includes(named)) return report(`@read(strategy: ${readStrategy.strategy}) names a shape the field does not declare; declared: ${declared.map((s) => `@${s}`).join(', ')}`);
    defaultStrategy = named;
  } else if (declared.length > 1) {
    return report(`declares ${declared.length} shapes (${declared.map((s) => `@${s}`).join(', ')}) but no @read; add @read(strategy: ${declared[0]!.toUpperCase()}) to say which one serves reads`);
  } else {
    defaultStrategy = declared[0]!;
  }

  if (connection) {
    if (isList(field.type)) return report(`returns a list of ${connection.typeName}; a connection is one object, return ${connection.typeName}!`);
    const other = declared.find((strategy) => strategy !== 'join');
    if (other) return report(`a connection pages a reverse @join; @${other} keeps the documents in the parent, so return [${target.name}!]! there instead`);
    if (shapes.join?.direction === 'byKey') {
      return report(`a connection pages a reverse @join (foreignField other than _id); a join by key reads the keys the parent holds, so return [${target.name}!]! instead`);
    }
    if (shapes.join?.limit !== undefined) return report(`@join(limit: ${shapes.join.limit}) bounds the list, but a connection pages through all of it; remove limit`);
  }
  const checked = checkArguments(field, shapes, connection !== undefined, report);
  // A shape that failed to build has already been reported.
  if (!checked || declared.some((strategy) => shapes[strategy] === undefined)) return undefined;
  const { pageArguments } = checked;
  if (checked.listArguments.length > 0) pending.set(coordinate, checked.listArguments);
  return Object.freeze({
    kind: 'relation',
    typeName: type.name,
    fieldName: field.name,
    coordinate,
    targetType: target.name,
    isList: connection !== undefined || isList(field.type),
    nonNull: isNonNullType(field.type),
    ...(holdsNullableElements(field.type) && { nullableElements: true }),
    shapes: Object.freeze(shapes),
    defaultStrategy,
    pageArguments,
    listArguments: NO_LIST_ARGUMENTS,
    connection,
  });
}

/** Whether a field of `type` is stored at `path` by its @path (a field's own name is a path only where no @path renames it). */
function storesAtPath(schema: GraphQLSchema, type: GraphQLObjectType, path: string): boolean {
  return Object.values(type.getFields()).some((field) => {
    try {
      return (readPath(schema, field)?.path ?? (field.name === 'id' ? '_id' : field.name)) === path;
    } catch {
      return false;
    }
  });
}

/**
 * The `id: ID` field of a type without `@collection` that reads a stored "id" (it has no @path): the documents a
 * `@join(collection:)` reads keep their id as `_id`, which such a field does not read.
 */
function idReadFromItsOwnField(schema: GraphQLSchema, type: GraphQLObjectType): GraphQLField<unknown, unknown> | undefined {
  const id = type.getFields().id;
  if (!id || getNamedType(id.type).name !== 'ID') return undefined;
  try {
    return readPath(schema, id) === undefined ? id : undefined;
  } catch {
    return undefined;
  }
}

function buildJoinShape(
  schema: GraphQLSchema,
  join: JoinDirective,
  target: GraphQLNamedType,
  collections: ReadonlyMap<string, string | undefined>,
  report: (message: string) => undefined,
): JoinShape | undefined {
  const targetType = target.name;
  if (!isObjectType(target)) return report(`@join needs an object type, but ${targetType} is not one`);
  const ownId = collections.get(targetType) === undefined ? idReadFromItsOwnField(schema, target) : undefined;
  const collection = join.collection ?? collections.get(targetType);
  if (collection === undefined) {
    const orName = ownId ? `, or collection: "..." to the @join and @path(path: "_id") to ${targetType}.id` : ' or collection: "..." to the @join';
    return report(`@join target ${targetType} has no @collection; add @collection(name: "...") to type ${targetType}${orName}`);
  }
  if (ownId) {
    return report(
      `@join(collection: "${collection}") reads ${targetType} documents, which keep their id as _id, but ${targetType}.id reads a stored "id" (${targetType} has no @collection); add @collection(name: "${collection}") to type ${targetType}, or @path(path: "_id") to ${targetType}.id (@path(path: "id") if its documents keep an id of their own)`,
    );
  }
  const direction = join.foreignField === '_id' ? 'byKey' : 'byReference';
  if (join.limit !== undefined && join.limit < 1) return report(`@join(limit: ${join.limit}) must be at least 1`);
  let sort: JoinShape['sort'] = [];
  if (join.sort !== undefined) {
    const parsed = parseSort(join.sort);
    if (typeof parsed === 'string') return report(`@join ${parsed}`);
    sort = parsed;
  } else if (direction === 'byReference') {
    sort = [{ path: '_id', direction: 1 }];
  }
  if (direction === 'byKey' && (join.sort !== undefined || join.limit !== undefined)) {
    return report(`@join(sort:, limit:) apply to reverse joins (foreignField other than _id); a join by _id keeps the order of the keys in "${join.localField}"`);
  }
  return Object.freeze({
    kind: 'join',
    collection,
    targetType,
    localField: join.localField,
    foreignField: join.foreignField,
    direction,
    sort: Object.freeze(sort.map((key) => Object.freeze({ ...key }))),
    limit: join.limit,
  });
}

/** Which page arguments each shape can honour: a field may only declare arguments every one of its shapes honours. */
function honours(shape: EmbeddedShape | JoinShape | SnapshotShape, argument: PageArgumentName): boolean {
  switch (shape.kind) {
    case 'embedded':
      return argument === 'first';
    case 'join':
      return shape.direction === 'byReference';
    case 'snapshot':
      return false;
    default: {
      const never: never = shape;
      throw new Error(`unknown shape ${JSON.stringify(never)}`);
    }
  }
}

function checkArguments(
  field: GraphQLField<unknown, unknown>,
  shapes: { embedded?: EmbeddedShape; join?: JoinShape; snapshot?: SnapshotShape },
  isConnection: boolean,
  report: (message: string) => undefined,
): { pageArguments: PageArguments; listArguments: GraphQLArgument[] } | undefined {
  const found: Record<PageArgumentName, boolean> = { first: false, after: false, before: false };
  const listArguments: GraphQLArgument[] = [];
  // A reverse join filters in its aggregate; a by-key join, a snapshot and an embedded array filter the
  // documents they hold (an embedded copy of a join hands filters to its join).
  const takesListArguments = isConnection || isList(field.type);
  let ok = true;
  for (const arg of field.args) {
    if (!(PAGE_ARGUMENTS as readonly string[]).includes(arg.name)) {
      if (takesListArguments) {
        listArguments.push(arg);
        continue;
      }
      ok = false;
      report(
        `argument "${arg.name}" is not understood by any storage shape; a single-valued relation accepts first, after and before only (filters and orderBy are for lists)`,
      );
      continue;
    }
    const name = arg.name as PageArgumentName;
    if (isConnection && name === 'before') {
      ok = false;
      report('argument "before": a connection pages forward, with first and after (a cursor); remove before');
      continue;
    }
    // A connection's `after` is an opaque cursor; a plain list's is the id of the last item received.
    const expected = name === 'first' ? 'Int' : name === 'after' ? (isConnection ? 'String' : 'ID') : 'DateTime';
    if (getNamedType(arg.type).name !== expected) {
      ok = false;
      report(`argument "${name}" must be of type ${expected}`);
      continue;
    }
    const defaultProblem = name === 'first' ? firstDefaultProblem(arg) : undefined;
    if (defaultProblem) {
      ok = false;
      report(defaultProblem);
      continue;
    }
    for (const shape of Object.values(shapes)) {
      if (!honours(shape, name)) {
        ok = false;
        report(`argument "${name}" can't be honoured by its @${shape.kind} shape (${shape.kind === 'embedded' ? 'an embedded array pages with first only' : 'only a reverse @join, with foreignField other than _id, can page'}); remove the argument or the shape`);
      }
    }
    found[name] = true;
  }
  return ok ? { pageArguments: Object.freeze({ ...found, firstDefault: declaredFirst(field.args.find((arg) => arg.name === 'first')) }), listArguments } : undefined;
}

/**
 * A reverse join's filters and orderBy, read once every type's storage is known (they name the
 * target's fields); the field is replaced by one that carries them.
 */
function withListArguments(
  schema: GraphQLSchema,
  field: RelationField,
  args: readonly GraphQLArgument[],
  types: ReadonlyMap<string, TypeStorage>,
  problems: string[],
  refused: ReadonlySet<string>,
): RelationField | undefined {
  const report = (message: string): undefined => {
    problems.push(`${field.coordinate}: ${message}`);
    return undefined;
  };
  const target = types.get(field.targetType);
  if (!target) return report(`filters need the fields of ${field.targetType}, which has no storage`);
  const conditions: RootCondition[] = [];
  let orderBy: ListOrder | undefined;
  let ok = true;
  for (const argument of args) {
    if (argument.name === 'orderBy' && isEnumType(getNamedType(argument.type))) {
      orderBy = orderByArgument(schema, argument, report);
      ok &&= orderBy !== undefined;
      continue;
    }
    const parsed = condition(schema, argument, target, report, refused);
    if (parsed) conditions.push(parsed);
    else ok = false;
  }
  if (!ok) return undefined;
  return Object.freeze({ ...field, listArguments: Object.freeze({ conditions: Object.freeze(conditions), orderBy: orderBy && Object.freeze(orderBy) }) });
}

function isList(type: GraphQLOutputType): boolean {
  return isNonNullType(type) ? isListType(type.ofType) : isListType(type);
}

/** How many lists the type nests (`[[Int!]!]` is 2). */
function listDepth(type: GraphQLOutputType): number {
  const unwrapped = isNonNullType(type) ? type.ofType : type;
  return isListType(unwrapped) ? 1 + listDepth(unwrapped.ofType) : 0;
}

/** A list whose elements may be null (`[Line]`). */
function holdsNullableElements(type: GraphQLOutputType): boolean {
  const list = isNonNullType(type) ? type.ofType : type;
  return isListType(list) && !isNonNullType(list.ofType);
}
