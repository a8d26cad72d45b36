import { getNamedType, isObjectType, type GraphQLSchema } from 'graphql';
import type { OperationPlan, StorageMap, ViewerExplanation } from '../../gateway';
import type { FieldPlanRow } from './plan-operation';

/** What `explain` says of the access rules for its viewer: a refusal, or the rows each type's commands are limited to. */
export interface AccessVerdict {
  readonly refused: boolean;
  readonly lines: readonly string[];
}

/**
 * The viewer's verdict on the operation: refused (the server answers 403 FORBIDDEN before sending
 * anything), or, per stored type the operation reads, the condition MongoDB filters its rows by (every
 * command that reads the type carries it) and the types the role reads in full.
 */
export function accessVerdict(viewer: ViewerExplanation, plan: OperationPlan, rows: readonly FieldPlanRow[], schema: GraphQLSchema, storageMap: StorageMap): AccessVerdict {
  const claims = Object.keys(viewer.viewer.claims);
  const who = `role "${viewer.viewer.role}"${claims.length > 0 ? ` (claims: ${claims.join(', ')})` : ''}`;
  const refusal = viewer.refusal(plan);
  if (refusal) return { refused: true, lines: [`access: refused for ${who}: ${refusal}; the server answers 403 FORBIDDEN before sending anything`] };
  const types = [...new Set(rows.flatMap((row) => targetTypeOf(row.coordinate, schema, storageMap) ?? []))].filter((typeName) => storageMap.types.get(typeName)?.collection !== undefined);
  if (types.length === 0) return { refused: false, lines: [] };
  const limited = types.flatMap((typeName) => {
    const condition = viewer.rows(typeName);
    return condition === undefined ? [] : [`  ${typeName}: ${condition}`];
  });
  const whole = types.filter((typeName) => viewer.rows(typeName) === undefined);
  return {
    refused: false,
    lines: [
      limited.length === 0 ? `access as ${who}: every row of what it reads` : `access as ${who}: MongoDB filters every command that reads these types to the rows where`,
      ...limited,
      ...(limited.length > 0 && whole.length > 0 ? [`  every row of ${whole.join(', ')}`] : []),
    ],
  };
}

/** The stored type a root, relation or aggregate field reads (a connection's node type); undefined when docjoin cannot tell. */
function targetTypeOf(coordinate: string, schema: GraphQLSchema, storageMap: StorageMap): string | undefined {
  const known = storageMap.relations.get(coordinate)?.targetType ?? storageMap.roots.get(coordinate)?.targetType ?? storageMap.aggregates.get(coordinate)?.targetType;
  if (known !== undefined) return known;
  // A hand-written root: the type its field returns (its reads through context.documents carry the same filters).
  const [typeName, fieldName] = coordinate.split('.') as [string, string];
  const type = schema.getType(typeName);
  const field = isObjectType(type) ? type.getFields()[fieldName] : undefined;
  if (!field) return undefined;
  const named = getNamedType(field.type).name;
  return storageMap.connections.get(named)?.nodeType ?? named;
}
