import { declaredFirst, firstDefaultProblem } from './first-default';
import {
  getNamedType,
  getNullableType,
  isEnumType,
  isListType,
  isNonNullType,
  type GraphQLField,
  type GraphQLSchema,
} from 'graphql';
import { condition, orderByArgument } from './list-arguments';
import { parseSort } from './parse-sort';
import { readFind, readList } from './read-directives';
import type { ConnectionTypes } from './connection-type';
import type { ListOrder, RootCondition, RootField, TypeStorage } from './storage-map-types';

type Report = (message: string) => undefined;

/**
 * The Query fields docjoin resolves itself (`@find`, `@list`), each checked against the storage of the
 * type it returns. Problems go to `problems`, each naming `Query.field` and the fix.
 */
export function buildRootFields(
  schema: GraphQLSchema,
  types: ReadonlyMap<string, TypeStorage>,
  connectionTypes: ConnectionTypes,
  problems: string[],
  refused: ReadonlySet<string>,
): Map<string, RootField> {
  const roots = new Map<string, RootField>();
  const queryType = schema.getQueryType();
  for (const field of Object.values(queryType?.getFields() ?? {})) {
    const coordinate = `${queryType!.name}.${field.name}`;
    const report: Report = (message) => {
      problems.push(`${coordinate}: ${message}`);
      return undefined;
    };
    let root: RootField | undefined;
    try {
      root = buildRootField(schema, field, coordinate, { types, connectionTypes, refused }, report);
    } catch (error) {
      report((error as Error).message);
    }
    if (root) roots.set(coordinate, root);
  }
  return roots;
}

function buildRootField(
  schema: GraphQLSchema,
  field: GraphQLField<unknown, unknown>,
  coordinate: string,
  known: { readonly types: ReadonlyMap<string, TypeStorage>; readonly connectionTypes: ConnectionTypes; readonly refused: ReadonlySet<string> },
  report: Report,
): RootField | undefined {
  const find = readFind(schema, field);
  const list = readList(schema, field);
  if (!find && !list) return undefined;
  if (find && list) return report('declares both @find and @list; keep @find for one document, @list for a page');
  const returned = getNamedType(field.type);
  const connection = known.connectionTypes.connections.get(returned.name);
  // A malformed connection type is reported on its own.
  if (!connection && known.connectionTypes.plumbing.has(returned.name)) return undefined;
  if (connection && find) return report(`@find returns one document, not the connection ${connection.typeName}; use @list for a connection`);
  // A connection lists its node type.
  const target = connection ? schema.getType(connection.nodeType)! : returned;
  const storage = known.types.get(target.name);
  const directive = find ? '@find' : '@list';
  if (storage?.collection === undefined) return report(`${directive} returns ${target.name}, which has no @collection; add @collection(name: "...") to type ${target.name}`);
  const isList = isListType(getNullableType(field.type));
  const base = { coordinate, fieldName: field.name, targetType: target.name, collection: storage.collection };

  if (find) {
    if (isList) return report(`@find returns one document, but the field is a list; use @list for a page of ${target.name}`);
    if (isNonNullType(field.type)) return report(`@find returns null when nothing matches; make the field nullable (${target.name}, not ${target.name}!)`);
    if (field.args.length === 0) return report(`@find needs arguments naming a unique key, e.g. ${field.name}(id: ID!)`);
    const optional = field.args.find((argument) => !isNonNullType(argument.type));
    if (optional) return report(`@find argument "${optional.name}" must be non-null (${String(optional.type)}!): every argument is part of the key`);
    const conditions = collect(field.args.map((argument) => condition(schema, argument, storage, report, known.refused)));
    if (!conditions) return undefined;
    const notEquality = conditions.find((entry) => entry.op !== 'EQ');
    if (notEquality) return report(`@find compares by equality only; argument "${notEquality.argumentName}" asks for ${notEquality.op}`);
    return Object.freeze({ kind: 'find', ...base, conditions: Object.freeze(conditions) });
  }

  if (connection && isList) return report(`returns a list of ${connection.typeName}; a connection is one object, return ${connection.typeName}!`);
  if (!isList && !connection) return report(`@list returns a page, but the field is not a list; make it [${target.name}!]! (or a connection) or use @find`);
  const sort = parseSort(list!.sort);
  if (typeof sort === 'string') return report(`@list ${sort}`);
  let orderBy: ListOrder | undefined;
  const conditions: Array<RootCondition | undefined> = [];
  for (const argument of field.args) {
    if (argument.name === 'first') {
      if (getNamedType(argument.type).name !== 'Int' || isListType(getNullableType(argument.type))) report('argument "first" must be of type Int');
      const defaultProblem = firstDefaultProblem(argument);
      if (defaultProblem) report(defaultProblem);
    } else if (argument.name === 'after') {
      const expected = connection ? 'String' : 'ID';
      if (getNamedType(argument.type).name !== expected || isListType(getNullableType(argument.type))) {
        report(connection ? 'argument "after" must be of type String (a cursor the connection returned)' : 'argument "after" must be of type ID (the id of the last item received)');
      }
    } else if (argument.name === 'orderBy' && isEnumType(getNamedType(argument.type))) {
      orderBy = orderByArgument(schema, argument, report);
    } else {
      conditions.push(condition(schema, argument, storage, report, known.refused));
    }
  }
  const checked = collect(conditions);
  if (!checked) return undefined;
  return Object.freeze({ kind: 'list', ...base, sort: Object.freeze(sort), orderBy: orderBy && Object.freeze(orderBy), conditions: Object.freeze(checked), connection, firstDefault: declaredFirst(field.args.find((argument) => argument.name === 'first')) });
}

function collect<T>(entries: ReadonlyArray<T | undefined>): T[] | undefined {
  return entries.every((entry): entry is T => entry !== undefined) ? [...entries] : undefined;
}
