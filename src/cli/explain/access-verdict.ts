import { getNamedType, isObjectType, type GraphQLSchema } from 'graphql';
import type { OperationPlan, StorageMap, ViewerExplanation } from '../../gateway';
import type { FieldPlanRow } from './plan-operation';

/** What `explain --role` says of the access rules for its viewer: a refusal, or the rows it reads of each type. */
export interface AccessVerdict {
  readonly refused: boolean;
  readonly lines: readonly string[];
}

/**
 * The viewer's verdict on the operation: refused (the server answers 403 FORBIDDEN before sending
 * anything), or, per stored type the operation reads, the rows the viewer gets: those where its
 * conditions hold (a filter inside MongoDB on every command that reads the type, and the same check on
 * its copies), none (a field reaching the type answers null with FORBIDDEN), or every row.
 */
export function accessVerdict(viewer: ViewerExplanation, plan: OperationPlan, rows: readonly FieldPlanRow[], schema: GraphQLSchema, storageMap: StorageMap): AccessVerdict {
  const claims = Object.keys(viewer.viewer.claims);
  const who = `role "${viewer.viewer.role}"${claims.length > 0 ? ` (claims: ${claims.join(', ')})` : ''}`;
  const refusal = viewer.refusal(plan);
  if (refusal) return { refused: true, lines: [`access: refused for ${who}: ${refusal}; the server answers 403 FORBIDDEN before sending anything`] };
  const types = [...new Set(rows.flatMap((row) => targetTypeOf(row.coordinate, schema, storageMap) ?? []))].filter((typeName) => storageMap.types.get(typeName)?.collection !== undefined);
  const described = types.map((typeName) => ({ typeName, rows: viewer.rows(typeName) }));
  const limited = described.flatMap(({ typeName, rows: read }) => {
    if (read.kind === 'where') return [`  ${typeName}: where ${read.conditions}`];
    return read.kind === 'none' ? [`  ${typeName}: none; a field that reaches it answers null with FORBIDDEN`] : [];
  });
  const whole = described.filter(({ rows: read }) => read.kind === 'every').map(({ typeName }) => typeName);
  const writes = plan.operation.operation === 'mutation' ? writeLines(viewer, plan) : [];
  if (limited.length === 0) {
    const heading = whole.length > 0 ? `access as ${who}: every row of what it reads` : `access as ${who}, what it writes:`;
    return { refused: false, lines: whole.length === 0 && writes.length === 0 ? [] : [heading, ...writes] };
  }
  return {
    refused: false,
    lines: [
      `access as ${who}: the rows it reads of each type (a filter inside MongoDB on every command that reads the type; its copies checked alike)`,
      ...limited,
      ...(whole.length > 0 ? [`  every row of ${whole.join(', ')}`] : []),
      ...writes,
    ],
  };
}

/**
 * What each generated mutation of the operation writes for the role: the rows an update or delete
 * touches (the rule's conditions join its filter; another row is NOT_FOUND), or what a create's
 * conditions preset (an input giving another value is FORBIDDEN).
 */
function writeLines(viewer: ViewerExplanation, plan: OperationPlan): string[] {
  const fields = plan.root?.fields.map((step) => step.fieldName) ?? [];
  return [...new Set(fields)].flatMap((fieldName) => {
    const write = viewer.writes(fieldName);
    if (!write) return [];
    const { typeName, action, rows } = write;
    if (action === 'create') {
      return [`  Mutation.${fieldName} creates ${typeName}${rows.kind === 'where' ? ` with ${rows.conditions.replaceAll(' = claim ', ' set from claim ')}; an input giving another value is FORBIDDEN` : ''}`];
    }
    const verb = action === 'update' ? 'updates' : 'deletes';
    return [`  Mutation.${fieldName} ${verb} ${rows.kind === 'where' ? `only rows of ${typeName} where ${rows.conditions}; another row is NOT_FOUND` : `any row of ${typeName}`}`];
  });
}

/** The stored type a root, relation or aggregate field reads (a connection's node type); undefined when docjoin cannot tell. */
function targetTypeOf(coordinate: string, schema: GraphQLSchema, storageMap: StorageMap): string | undefined {
  const known = storageMap.relations.get(coordinate)?.targetType ?? storageMap.roots.get(coordinate)?.targetType ?? storageMap.aggregates.get(coordinate)?.targetType;
  if (known !== undefined) return known;
  // A hand-written root: the type its field returns (what else its resolver reads through context.documents is filtered too, but not named here).
  const [typeName, fieldName] = coordinate.split('.') as [string, string];
  const type = schema.getType(typeName);
  const field = isObjectType(type) ? type.getFields()[fieldName] : undefined;
  if (!field) return undefined;
  const named = getNamedType(field.type).name;
  return storageMap.connections.get(named)?.nodeType ?? named;
}
