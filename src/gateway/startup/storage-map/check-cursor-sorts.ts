import type { GraphQLSchema } from 'graphql';
import { listOnPath } from './copy-paths';
import type { ListOrder, SortKey, StorageMap } from './storage-map-types';

/**
 * A field paged by cursor (a connection, or `after`) must order by values each document holds once: a
 * path through a list gives a document several, MongoDB sorts it by the least or the greatest of them,
 * and a cursor cannot name a place among them (the next page would skip or repeat documents). One
 * problem per order that does, naming the field, the order and the list.
 */
export function cursorSortProblems(schema: GraphQLSchema, storageMap: StorageMap): string[] {
  const problems: string[] = [];
  const check = (coordinate: string, targetType: string, orders: ReadonlyArray<{ readonly name: string; readonly keys: readonly SortKey[] }>) => {
    for (const { name, keys } of orders) {
      for (const key of keys) {
        const list = listOnPath(storageMap, targetType, key.path);
        if (list === undefined) continue;
        problems.push(
          `${coordinate}: pages by cursor, but ${name} sorts by "${key.path}", which runs through the list ${list}: a document holds several values there and a cursor cannot keep its place among them; sort by a single-valued path, or page ${coordinate} with first only`,
        );
      }
    }
  };
  const queryFields = schema.getQueryType()?.getFields() ?? {};
  for (const root of storageMap.roots.values()) {
    if (root.kind !== 'list') continue;
    const pagesByCursor = root.connection !== undefined || (queryFields[root.fieldName]?.args.some((argument) => argument.name === 'after') ?? false);
    if (pagesByCursor) check(root.coordinate, root.targetType, [{ name: 'its @list', keys: root.sort }, ...orderByOrders(root.orderBy)]);
  }
  for (const relation of storageMap.relations.values()) {
    const join = relation.shapes.join;
    if (join?.direction !== 'byReference' || (relation.connection === undefined && !relation.pageArguments.after)) continue;
    check(relation.coordinate, relation.targetType, [{ name: 'its @join', keys: join.sort }, ...orderByOrders(relation.listArguments.orderBy)]);
  }
  return problems;
}

function orderByOrders(orderBy: ListOrder | undefined): Array<{ name: string; keys: readonly SortKey[] }> {
  return [...(orderBy?.sorts ?? [])].map(([value, keys]) => ({ name: `${orderBy!.argumentName}: ${value}`, keys }));
}
