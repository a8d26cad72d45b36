import { Kind, type FieldNode, type FragmentDefinitionNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

/**
 * The fields selected under the field being resolved, by name (aliases merged), fragments spread:
 * what a hand-written resolver reads to choose a projection or what to populate.
 */
export function selectedFields(info: GraphQLResolveInfo): Map<string, FieldNode[]> {
  const fields = new Map<string, FieldNode[]>();
  for (const node of info.fieldNodes) if (node.selectionSet) collect(node.selectionSet, info.fragments, fields);
  return fields;
}

/** The same for a field node found in `selectedFields` (to walk down a selection without resolving it). */
export function subfields(nodes: readonly FieldNode[], fragments: GraphQLResolveInfo['fragments']): Map<string, FieldNode[]> {
  const fields = new Map<string, FieldNode[]>();
  for (const node of nodes) if (node.selectionSet) collect(node.selectionSet, fragments, fields);
  return fields;
}

function collect(selectionSet: SelectionSetNode, fragments: Readonly<Record<string, FragmentDefinitionNode>>, into: Map<string, FieldNode[]>): void {
  for (const selection of selectionSet.selections) {
    switch (selection.kind) {
      case Kind.FIELD: {
        const name = selection.name.value;
        if (name === '__typename') break;
        const nodes = into.get(name);
        if (nodes) nodes.push(selection);
        else into.set(name, [selection]);
        break;
      }
      case Kind.INLINE_FRAGMENT:
        collect(selection.selectionSet, fragments, into);
        break;
      case Kind.FRAGMENT_SPREAD: {
        const fragment = fragments[selection.name.value];
        if (fragment) collect(fragment.selectionSet, fragments, into);
        break;
      }
      default: {
        const never: never = selection;
        throw new Error(`unknown selection ${JSON.stringify(never)}`);
      }
    }
  }
}

/** A literal or variable argument of a field node (for looking ahead at a child's `first`). */
export function argumentValue(node: FieldNode, name: string, variables: Readonly<Record<string, unknown>>): unknown {
  const argument = node.arguments?.find((candidate) => candidate.name.value === name);
  if (argument === undefined) return undefined;
  const { value } = argument;
  switch (value.kind) {
    case Kind.INT:
      return Number(value.value);
    case Kind.STRING:
      return value.value;
    case Kind.VARIABLE:
      return variables[value.name.value];
    case Kind.NULL:
      return null;
    default:
      throw new Error(`argument ${name}: ${value.kind} values are not supported by this peer`);
  }
}
