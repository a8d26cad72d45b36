import { getNamedType, getNullableType, isEnumType, isLeafType, isListType, isNonNullType, type GraphQLOutputType } from 'graphql';
import type { FieldStep, SelectionStep } from './selection-tree';

/**
 * One object of `selection` as JSON: its braces and, per response key, `"key":` with the value
 * `valueBytes` gives and a comma (the last one too, which JSON leaves out: one byte of slack).
 */
export function objectJsonBytes(selection: SelectionStep, valueBytes: (field: FieldStep) => number): number {
  let bytes = 2;
  for (const field of selection.fields) bytes += field.responseKey.length + 4 + valueBytes(field);
  return bytes;
}

/**
 * The fewest bytes one value of `step` adds to a response as JSON, whatever the documents hold: a
 * lower bound, so that a response it says is too large is. Per item, one object of its selection (the
 * least of its possible types), with the comma after it in a list (a list's brackets, counted with its
 * parent, make up for the last); a connection's item is its edge and its node (`edges { node }`) and
 * its entry in `nodes`.
 */
export function leastItemBytes(step: FieldStep, connection: boolean): number {
  if (!connection) return leastObjectBytes(step.children) + (step.definition && isListType(getNullableType(step.definition.type)) ? 1 : 0);
  let bytes = 0;
  for (const field of step.children[0]?.fields ?? []) {
    if (field.fieldName === 'nodes') bytes += leastObjectBytes(field.children) + 1;
    if (field.fieldName !== 'edges') continue;
    bytes += leastObjectBytes(field.children) + 1;
    for (const edgeField of field.children[0]?.fields ?? []) if (edgeField.fieldName === 'node') bytes += leastObjectBytes(edgeField.children);
  }
  return bytes;
}

function leastObjectBytes(selections: readonly SelectionStep[]): number {
  let least: number | undefined;
  for (const selection of selections) {
    const bytes = objectJsonBytes(selection, (field) => leastValueBytes(field, selection)) - (selection.fields.length > 0 ? 1 : 0);
    least = Math.min(least ?? bytes, bytes);
  }
  return least ?? 0;
}

/**
 * The fewest bytes of one field's value: `__typename` exactly; a leaf as its shortest serialization
 * (`""`, `0`, `true`, its shortest enum value, or `null` when that is shorter); an object or a list
 * nothing, since the objects in it are counted by the field's own resolver.
 */
function leastValueBytes(field: FieldStep, selection: SelectionStep): number {
  if (field.fieldName === '__typename') return selection.type.name.length + 2;
  const type = field.definition?.type;
  if (!type || !isLeafType(getNamedType(type))) return 0;
  return isNonNullType(type) ? leastLeafBytes(type.ofType) : Math.min(NULL_BYTES, leastLeafBytes(type));
}

const NULL_BYTES = 4;

/**
 * The entries of a list of leaves of type `type` the response will hold: none when an entry is null
 * where the type forbids it, since the whole list then answers null.
 */
export function listedEntries(type: GraphQLOutputType, list: readonly unknown[]): number {
  const entry = getNullableType(type);
  if (isListType(entry) && isNonNullType(entry.ofType)) for (const value of list) if (value === null || value === undefined) return 0;
  return list.length;
}

/** The fewest bytes of one entry of a list of leaves of type `type`, with the comma after it. */
export function leastEntryBytes(type: GraphQLOutputType): number {
  const list = getNullableType(type);
  if (!isListType(list)) return 0;
  const entry = list.ofType as GraphQLOutputType;
  return (isNonNullType(entry) ? leastLeafBytes(entry.ofType) : Math.min(NULL_BYTES, leastLeafBytes(entry))) + 1;
}

function leastLeafBytes(type: GraphQLOutputType): number {
  if (isListType(type)) return 2;
  const named = getNamedType(type);
  if (isEnumType(named)) return 2 + Math.min(...named.getValues().map((value) => value.name.length));
  switch (named.name) {
    case 'String':
    case 'ID':
      return 2;
    case 'Boolean':
      return 4;
    default:
      return 1;
  }
}
