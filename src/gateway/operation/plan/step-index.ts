import type { FieldNode, GraphQLObjectType } from 'graphql';
import type { OperationPlan } from './operation-plan';
import type { FieldStep, SelectionStep } from './selection-tree';

/** Each plan's field steps by their first field node, built the first time a resolver looks one up. */
const indexes = new WeakMap<SelectionStep, ReadonlyMap<FieldNode, readonly FieldStep[]>>();

/**
 * The step of `plan` that a resolver called with `fieldNodes` on `parentType` runs: graphql-js collects
 * a field's nodes exactly as the plan does, so the step with the same parent type and the same nodes
 * selects the same fields below it, wherever in the operation it sits. Undefined when the plan has no
 * such step (it was made from another parse of the document, or is too large to plan).
 */
export function planStepOf(plan: OperationPlan, parentType: GraphQLObjectType, fieldNodes: readonly FieldNode[]): FieldStep | undefined {
  if (!plan.root) return undefined;
  let index = indexes.get(plan.root);
  if (!index) indexes.set(plan.root, (index = indexSteps(plan.root)));
  return index.get(fieldNodes[0]!)?.find((step) => step.parentType === parentType && sameNodes(step.fieldNodes, fieldNodes));
}

function indexSteps(root: SelectionStep): Map<FieldNode, FieldStep[]> {
  const index = new Map<FieldNode, FieldStep[]>();
  const visit = (selection: SelectionStep): void => {
    for (const field of selection.fields) {
      const first = field.fieldNodes[0]!;
      const steps = index.get(first);
      if (steps) steps.push(field);
      else index.set(first, [field]);
      field.children.forEach(visit);
    }
  };
  visit(root);
  return index;
}

function sameNodes(a: readonly FieldNode[], b: readonly FieldNode[]): boolean {
  return a === b || (a.length === b.length && a.every((node, position) => node === b[position]));
}
