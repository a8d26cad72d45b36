import { Kind, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import type { SelectionSource } from './selection-source';
import { isIncluded } from './selection-rules';

/**
 * How deeply selection sets nest: `{ books { name } }` is 1, `{ books { publisher { name } } }` is 2.
 * Fragments count where they are spread; skipped selections and introspection (`__schema`, `__type`)
 * don't count (they never reach MongoDB).
 */
export function selectionDepth(source: SelectionSource, selectionSet: SelectionSetNode): number {
  return depthOf(source, selectionSet, new Map(), new Set());
}

function depthOf(source: SelectionSource, selectionSet: SelectionSetNode, fragmentDepths: Map<string, number>, visiting: Set<string>): number {
  let deepest = 0;
  for (const selection of selectionSet.selections) {
    if (!isIncluded(source, selection)) continue;
    if (selection.kind === Kind.FIELD) {
      if (selection.selectionSet && !selection.name.value.startsWith('__')) {
        deepest = Math.max(deepest, 1 + depthOf(source, selection.selectionSet, fragmentDepths, visiting));
      }
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      deepest = Math.max(deepest, depthOf(source, selection.selectionSet, fragmentDepths, visiting));
    } else {
      deepest = Math.max(deepest, fragmentDepth(source, source.fragments[selection.name.value], fragmentDepths, visiting));
    }
  }
  return deepest;
}

/** Memoized per fragment (its depth doesn't depend on where it is spread); cycles are invalid GraphQL and count 0. */
function fragmentDepth(source: SelectionSource, fragment: FragmentDefinitionNode | undefined, fragmentDepths: Map<string, number>, visiting: Set<string>): number {
  if (!fragment) return 0;
  const name = fragment.name.value;
  const known = fragmentDepths.get(name);
  if (known !== undefined) return known;
  if (visiting.has(name)) return 0;
  visiting.add(name);
  const depth = depthOf(source, fragment.selectionSet, fragmentDepths, visiting);
  visiting.delete(name);
  fragmentDepths.set(name, depth);
  return depth;
}
