import { visit, BREAK, type FieldNode } from 'graphql';
import type { FieldStep } from './selection-tree';

const readsVariables = new WeakMap<FieldStep, boolean>();

/**
 * Whether an argument of the step's field, or of any field below it, is a variable: what it plans
 * from arguments (a projection's `$slice`, an embedded list's filters) then differs from request to
 * request. Without one, it is the same for every request of the plan.
 */
export function stepReadsVariables(step: FieldStep): boolean {
  let reads = readsVariables.get(step);
  if (reads === undefined) {
    reads = step.fieldNodes.some(argumentsHoldVariable) || selectionReadsVariables(step);
    readsVariables.set(step, reads);
  }
  return reads;
}

/** Whether the selection under `step` reads a variable in some argument (the step's own arguments aside). */
export function selectionReadsVariables(step: FieldStep): boolean {
  return step.children.some((child) => child.fields.some(stepReadsVariables));
}

function argumentsHoldVariable(node: FieldNode): boolean {
  let found = false;
  for (const argument of node.arguments ?? []) {
    visit(argument.value, {
      Variable() {
        found = true;
        return BREAK;
      },
    });
    if (found) return true;
  }
  return false;
}
