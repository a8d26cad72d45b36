import type { GraphQLSchema } from 'graphql';
import { isAtOrUnder } from '../../documents/read-path';
import { copiesOnPath, listOnPath } from './copy-paths';
import type { ListOrder, SortKey, StorageMap } from './storage-map-types';

/** An order a field paged by cursor (a connection, or `after`) may run. */
export interface CursorPagedOrder {
  readonly coordinate: string;
  readonly targetType: string;
  /** `its @list`, `its @join`, or `orderBy: NEWEST`. */
  readonly name: string;
  readonly keys: readonly SortKey[];
  /** A connection's: its cursors carry each item's values of the order. */
  readonly valuesInCursors: boolean;
}

/** Every order of every field paged by cursor. */
export function cursorPagedOrders(schema: GraphQLSchema, storageMap: StorageMap): CursorPagedOrder[] {
  const orders: CursorPagedOrder[] = [];
  const queryFields = schema.getQueryType()?.getFields() ?? {};
  for (const root of storageMap.roots.values()) {
    if (root.kind !== 'list') continue;
    const valuesInCursors = root.connection !== undefined;
    if (!valuesInCursors && !(queryFields[root.fieldName]?.args.some((argument) => argument.name === 'after') ?? false)) continue;
    for (const order of [{ name: 'its @list', keys: root.sort }, ...orderByOrders(root.orderBy)]) orders.push({ coordinate: root.coordinate, targetType: root.targetType, ...order, valuesInCursors });
  }
  for (const relation of storageMap.relations.values()) {
    const join = relation.shapes.join;
    if (join?.direction !== 'byReference' || (relation.connection === undefined && !relation.pageArguments.after)) continue;
    for (const order of [{ name: 'its @join', keys: join.sort }, ...orderByOrders(relation.listArguments.orderBy)]) {
      orders.push({ coordinate: relation.coordinate, targetType: relation.targetType, ...order, valuesInCursors: relation.connection !== undefined });
    }
  }
  return orders;
}

/**
 * A field paged by cursor must order by values each document holds once: a path through a list gives a
 * document several, MongoDB sorts it by the least or the greatest of them, and a cursor cannot name a
 * place among them (the next page would skip or repeat documents). A connection's cursors carry the
 * values, which any client can decode, so it must order by values the schema shows: not a path no
 * field declares, nor a whole embedded or copied document (with the fields its type leaves out). One
 * problem per order and path, naming the field, the order and the fix.
 */
export function cursorSortProblems(schema: GraphQLSchema, storageMap: StorageMap): string[] {
  const problems: string[] = [];
  for (const { coordinate, targetType, name, keys, valuesInCursors } of cursorPagedOrders(schema, storageMap)) {
    for (const key of keys) {
      const list = listOnPath(storageMap, targetType, key.path);
      const unshown = list === undefined && valuesInCursors ? unshownSortValue(storageMap, targetType, key.path) : undefined;
      if (list !== undefined) {
        problems.push(
          `${coordinate}: pages by cursor, but ${name} sorts by "${key.path}", which runs through the list ${list}: a document holds several values there and a cursor cannot keep its place among them; sort by a single-valued path, or page ${coordinate} with first only`,
        );
      } else if (unshown !== undefined) {
        problems.push(`${coordinate}: its cursors carry the values it is ordered by, which any client can decode, but ${name} sorts by "${key.path}", ${unshown}`);
      }
    }
  }
  return problems;
}

/** Why the value at `path` of `typeName` documents is not one the schema shows, with the fix; undefined when it is. */
function unshownSortValue(storageMap: StorageMap, typeName: string, path: string): string | undefined {
  const storage = storageMap.types.get(typeName);
  if (path === '_id' || [...(storage?.fields.values() ?? [])].some((field) => field.kind === 'stored' && isAtOrUnder(path, field.path))) return undefined;
  const [copy] = copiesOnPath(storageMap, typeName, path);
  if (copy?.whole) return `the whole ${copy.field.coordinate}: the cursors would carry every field stored there, also those ${copy.field.targetType} does not declare; sort by fields inside it`;
  if (copy?.inTarget !== undefined) return unshownSortValue(storageMap, copy.field.targetType, copy.inTarget);
  return `which no field of ${typeName} declares: the cursors would show its values; declare a field for it, or sort by a declared one`;
}

function orderByOrders(orderBy: ListOrder | undefined): Array<{ name: string; keys: readonly SortKey[] }> {
  return [...(orderBy?.sorts ?? [])].map(([value, keys]) => ({ name: `${orderBy!.argumentName}: ${value}`, keys }));
}
