import type { AnyResolver, FieldPlan, SelectionPlan } from './owned-plan';
import type { ReadStrategy, RelationField, StorageMap } from '../../startup/storage-map/storage-map-types';
import type { OperationPlan } from './operation-plan';

/** What printing a plan reads besides it: where each field lives, and the strategies of the request. */
export interface PlanPrinting {
  readonly storageMap: StorageMap;
  strategyFor(field: RelationField): ReadStrategy;
  /** The root resolvers docjoin generated (Ownership.rootResolvers); the others are hand-written. */
  readonly generatedRoots: ReadonlySet<AnyResolver>;
}

/**
 * The plan as text, one line per step, indented by level (`docjoin explain --plan`): who runs the
 * operation (docjoin from this tree, or graphql-js and why), its depth, then each field in response
 * order with what reads it.
 */
export function printOperationPlan(plan: OperationPlan, printing: PlanPrinting): string {
  const name = plan.operation.name ? ` ${plan.operation.name.value}` : '';
  const runner = plan.owned ? "docjoin runs it level by level from this tree" : `graphql-js runs it (${plan.refusal ?? 'not owned'})`;
  const lines = [`${plan.operation.operation}${name}: depth ${plan.depth}; ${runner}`];
  if (plan.owned) printSelection(plan.owned.root, 1, printing, lines, plan.operation.operation);
  return `${lines.join('\n')}\n`;
}

/** `root`: the operation type, when `selection` is the root type's. */
function printSelection(selection: SelectionPlan, level: number, printing: PlanPrinting, lines: string[], root?: string): void {
  for (const field of selection.fields) {
    lines.push(`${'  '.repeat(level)}${describeField(field, printing, root)}`);
    if (field.kind === 'relation') printSelection(field.child, level + 1, printing, lines);
  }
}

function describeField(field: FieldPlan, printing: PlanPrinting, root: string | undefined): string {
  if (field.kind === 'typename') return field.responseKey === '__typename' ? '__typename' : `${field.responseKey}: __typename`;
  const key = field.responseKey === field.fieldName ? field.fieldName : `${field.responseKey}: ${field.fieldName}`;
  const coordinate = `${field.parentType.name}.${field.fieldName}`;
  if (root !== undefined && field.kind !== 'stored') {
    if (!printing.generatedRoots.has(field.resolve)) return `${key}  ${coordinate}, hand-written resolver`;
    return `${key}  ${coordinate}, ${root === 'mutation' ? 'generated mutation: its write unit, then a read back' : 'generated root: one find'}`;
  }
  switch (field.kind) {
    case 'stored':
      return `${key}  stored value`;
    case 'resolved':
      // Below the root, only a field of an object a hand-written resolver returned has a resolver that is not docjoin's.
      return field.handWritten ? `${key}  stored value, read as graphql-js reads it (an object from a hand-written resolver)` : `${key}  ${coordinate}, read by docjoin's resolver`;
    case 'relation': {
      const relation = printing.storageMap.relations.get(coordinate);
      return relation ? `${key}  ${coordinate}, ${printing.strategyFor(relation)} (declared: ${Object.keys(relation.shapes).join(', ')})` : `${key}  ${coordinate}`;
    }
    default: {
      const never: never = field;
      throw new Error(`unknown field plan ${JSON.stringify(never)}`);
    }
  }
}
