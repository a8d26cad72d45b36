import { getNamedType, isLeafType, isNonNullType, isObjectType, type GraphQLField, type GraphQLSchema } from 'graphql';
import type { StorageMap } from '../startup/storage-map/storage-map-types';

const HEADER = `# docjoin IDE. The "MongoDB cost" panel shows what each response cost (extensions.cost).
# In Headers, {"x-docjoin-strategy": "Type.field=join"} switches a relation's strategy for one request,
# and {"x-docjoin-cost": "commands"} lists every command sent to MongoDB.
`;

/**
 * The operation the IDE opens with: the schema's first generated list with no required argument, a few
 * of its scalar fields and one relation (one that costs a query, when there is one), so that the first
 * run already shows a cost. Any schema gets one; `{ __typename }` when it has no such list.
 */
export function defaultIdeQuery(schema: GraphQLSchema, storageMap: StorageMap): string {
  for (const root of storageMap.roots.values()) {
    if (root.kind !== 'list' || root.connection) continue;
    const definition = schema.getQueryType()?.getFields()[root.fieldName];
    const type = schema.getType(root.targetType);
    if (!definition || !isObjectType(type) || hasRequiredArgument(definition)) continue;
    const fields = Object.values(type.getFields());
    const scalars = fields.filter((field) => isLeafType(getNamedType(field.type)) && !hasRequiredArgument(field)).slice(0, 3);
    const relations = [...storageMap.relations.values()].filter((relation) => relation.typeName === type.name && !relation.connection && !hasRequiredArgument(type.getFields()[relation.fieldName]!));
    const relation = relations.find((candidate) => candidate.defaultStrategy !== 'embedded') ?? relations[0];
    const relationType = relation && schema.getType(relation.targetType);
    const relationScalar = isObjectType(relationType) ? Object.values(relationType.getFields()).find((field) => isLeafType(getNamedType(field.type)) && !hasRequiredArgument(field)) : undefined;
    const lines = [...scalars.map((field) => `    ${field.name}`), ...(relation && relationScalar ? [`    ${relation.fieldName} {`, `      ${relationScalar.name}`, '    }'] : [])];
    if (lines.length === 0) continue;
    return `${HEADER}{\n  ${root.fieldName}(first: 3) {\n${lines.join('\n')}\n  }\n}\n`;
  }
  return `${HEADER}{\n  __typename\n}\n`;
}

function hasRequiredArgument(field: GraphQLField<unknown, unknown>): boolean {
  return field.args.some((argument) => isNonNullType(argument.type) && argument.defaultValue === undefined);
}
