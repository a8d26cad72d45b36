import { Kind, parse, visit, type DocumentNode, type FieldDefinitionNode, type ObjectTypeDefinitionNode, type ObjectTypeExtensionNode } from 'graphql';
import { DEFAULT_FIRST, MAX_FIRST } from '../storage-map/page-limits';
import type { StorageMap } from '../storage-map/storage-map-types';

/**
 * An omitted `first` reads DEFAULT_FIRST items wherever docjoin pages a list (page-request.ts). Where
 * the SDL declares `first: Int` with no default, the schema clients see gets that default written in,
 * so introspection, the IDE and the generated types say how many items an omitted `first` returns.
 * A `first` the SDL leaves undescribed gets a description saying its bounds (page-request.ts refuses
 * a value past MAX_FIRST), which introspection has no other way to carry.
 */
export function withPageDefaults(typeDefs: readonly string[], storageMap: StorageMap): DocumentNode[] {
  /** Each paged field, with the most items it ever holds below MAX_FIRST (a join's `limit`). */
  const paged = new Map<string, number | undefined>([
    ...[...storageMap.relations.values()].filter((relation) => relation.pageArguments.first).map((relation) => [relation.coordinate, relation.shapes.join?.limit] as const),
    ...[...storageMap.roots.values()].filter((root) => root.kind === 'list').map((root) => [root.coordinate, undefined] as const),
  ]);
  const withDefaults = (node: ObjectTypeDefinitionNode | ObjectTypeExtensionNode) => ({
    ...node,
    fields: node.fields?.map((field) => {
      const coordinate = `${node.name.value}.${field.name.value}`;
      return paged.has(coordinate) ? withFirstDefault(field, paged.get(coordinate)) : field;
    }),
  });
  return typeDefs.map((source) => visit(parse(source), { ObjectTypeDefinition: withDefaults, ObjectTypeExtension: withDefaults }));
}

function firstDescription(limit: number | undefined): string {
  const bounds = `At most ${MAX_FIRST}: a larger value is an error.`;
  return limit === undefined || limit >= MAX_FIRST ? bounds : `${bounds} The list holds at most ${limit} ${limit === 1 ? 'item' : 'items'}, whatever a larger value asks.`;
}

function withFirstDefault(field: FieldDefinitionNode, limit: number | undefined): FieldDefinitionNode {
  return {
    ...field,
    arguments: field.arguments?.map((argument) =>
      argument.name.value === 'first'
        ? {
            ...argument,
            defaultValue: argument.defaultValue ?? { kind: Kind.INT, value: String(DEFAULT_FIRST) },
            description: argument.description ?? { kind: Kind.STRING, value: firstDescription(limit) },
          }
        : argument,
    ),
  };
}
