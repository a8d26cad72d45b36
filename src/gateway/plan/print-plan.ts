import type { FieldPlan, SelectionPlan } from '../execution/owned-plan';
import type { ReadStrategy, RelationField, StorageMap } from '../storage-map/storage-map-types';
import type { OperationPlan } from './operation-plan';

/** What printing a plan reads besides it: where each field lives, and the strategies of the request. */
export interface PlanPrinting {
  readonly storageMap: StorageMap;
  strategyFor(field: RelationField): ReadStrategy;
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
  if (plan.owned) printSelection(plan.owned.root, 1, printing, lines, true);
  return `${lines.join('\n')}\n`;
}

function printSelection(selection: SelectionPlan, level: number, printing: PlanPrinting, lines: string[], isRoot = false): void {
  for (const field of selection.fields) {
    lines.push(`${'  '.repeat(level)}${describeField(field, printing, isRoot)}`);
    if (field.kind === 'relation') printSelection(field.child, level + 1, printing, lines);
  }
}

function describeField(field: FieldPlan, printing: PlanPrinting, isRoot: boolean): string {
  if (field.kind === 'typename') return field.responseKey === '__typename' ? '__typename' : `${field.responseKey}: __typename`;
  const key = field.responseKey === field.fieldName ? field.fieldName : `${field.responseKey}: ${field.fieldName}`;
  const coordinate = `${field.parentType.name}.${field.fieldName}`;
  switch (field.kind) {
    case 'stored':
      return `${key}  stored value`;
    case 'resolved':
      return `${key}  ${coordinate}, read by docjoin's resolver`;
    case 'relation': {
      if (isRoot) return `${key}  ${coordinate}, generated root: one find`;
      const relation = printing.storageMap.relations.get(coordinate);
      return relation ? `${key}  ${coordinate}, ${printing.strategyFor(relation)} (declared: ${Object.keys(relation.shapes).join(', ')})` : `${key}  ${coordinate}`;
    }
    default: {
      const never: never = field;
      throw new Error(`unknown field plan ${JSON.stringify(never)}`);
    }
  }
}
