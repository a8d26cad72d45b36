import { Kind, parse, type ConstDirectiveNode, type FieldDefinitionNode } from 'graphql';
import { nearestKey } from '../project/nearest-key';

/**
 * The text edit of one field's `@snapshot` in the project's schema files: widen its `fields` list, or
 * remove it (with `@read(strategy: SNAPSHOT)`) so the field reads by its join. Pure: files in, the
 * changed file's new text out; the rest of the text is left byte for byte.
 */

export interface SchemaFile {
  readonly file: string;
  readonly text: string;
}

export interface SdlChange {
  /** The file the field is declared in. */
  readonly file: string;
  /** Its text after the change (the same text when nothing changes). */
  readonly text: string;
  /** The snapshot's `fields` before the change (empty when the field declares no snapshot). */
  readonly fieldsBefore: readonly string[];
  /** After the change (empty when the snapshot is removed). */
  readonly fieldsAfter: readonly string[];
}

/** The SDL cannot be changed as asked; the message is one line naming `Type.field`. */
export class SdlChangeError extends Error {
  override readonly name = 'SdlChangeError';
}

/** `fields` added to `coordinate`'s snapshot list, after the ones it has, in the order given. */
export function widenSnapshotSdl(files: readonly SchemaFile[], coordinate: string, fields: readonly string[]): SdlChange {
  const { source, snapshot } = requireSnapshot(files, coordinate, 'widen');
  const list = snapshot.arguments?.find((argument) => argument.name.value === 'fields')?.value;
  if (list?.kind !== Kind.LIST || !list.values.every((value) => value.kind === Kind.STRING) || !list.loc) {
    throw new SdlChangeError(`${coordinate}: its @snapshot's fields must be a list of strings to widen it`);
  }
  const fieldsBefore = list.values.map((value) => (value.kind === Kind.STRING ? value.value : ''));
  const fieldsAfter = [...fieldsBefore, ...fields.filter((name) => !fieldsBefore.includes(name))];
  if (fieldsAfter.length === fieldsBefore.length) return { file: source.file, text: source.text, fieldsBefore, fieldsAfter };
  const replacement = `[${fieldsAfter.map((name) => JSON.stringify(name)).join(', ')}]`;
  return { file: source.file, text: source.text.slice(0, list.loc.start) + replacement + source.text.slice(list.loc.end), fieldsBefore, fieldsAfter };
}

/**
 * `coordinate` without its `@snapshot` and its `@read(strategy: SNAPSHOT)`: its join serves reads. A
 * field that declares no snapshot is returned unchanged (the directive is already gone).
 */
export function dropSnapshotSdl(files: readonly SchemaFile[], coordinate: string): SdlChange {
  const { source, field } = findField(files, coordinate);
  const snapshot = field.directives?.find((directive) => directive.name.value === 'snapshot');
  if (!snapshot) return { file: source.file, text: source.text, fieldsBefore: [], fieldsAfter: [] };
  const fieldsValue = snapshot.arguments?.find((argument) => argument.name.value === 'fields')?.value;
  const fieldsBefore = fieldsValue?.kind === Kind.LIST ? fieldsValue.values.flatMap((value) => (value.kind === Kind.STRING ? [value.value] : [])) : [];
  const readsSnapshot = field.directives?.find(
    (directive) => directive.name.value === 'read' && directive.arguments?.some((argument) => argument.name.value === 'strategy' && argument.value.kind === Kind.ENUM && argument.value.value === 'SNAPSHOT'),
  );
  let text = source.text;
  // From the end, so the earlier offsets stay valid.
  for (const directive of [snapshot, readsSnapshot].filter((node): node is ConstDirectiveNode => node !== undefined).sort((a, b) => b.loc!.start - a.loc!.start)) {
    text = removeSpan(text, directive.loc!.start, directive.loc!.end);
  }
  return { file: source.file, text, fieldsBefore, fieldsAfter: [] };
}

function requireSnapshot(files: readonly SchemaFile[], coordinate: string, verb: string): { source: SchemaFile; field: FieldDefinitionNode; snapshot: ConstDirectiveNode } {
  const { source, field } = findField(files, coordinate);
  const snapshot = field.directives?.find((directive) => directive.name.value === 'snapshot');
  if (!snapshot) throw new SdlChangeError(`${coordinate} declares no @snapshot to ${verb} (in ${source.file})`);
  return { source, field, snapshot };
}

/** The file declaring `coordinate`, and its definition there. */
export function findField(files: readonly SchemaFile[], coordinate: string): { source: SchemaFile; field: FieldDefinitionNode } {
  const [typeName, fieldName] = coordinate.split('.') as [string, string];
  const declared: string[] = [];
  for (const source of files) {
    for (const definition of parse(source.text).definitions) {
      if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
      declared.push(...(definition.fields ?? []).map((candidate) => `${definition.name.value}.${candidate.name.value}`));
      if (definition.name.value !== typeName) continue;
      const field = definition.fields?.find((candidate) => candidate.name.value === fieldName);
      if (field) return { source, field };
    }
  }
  const nearest = nearestKey(coordinate, declared);
  throw new SdlChangeError(`${coordinate} is not declared in the project's schema files (${files.map((source) => source.file).join(', ')})${nearest === undefined ? '' : `; did you mean ${nearest}?`}`);
}

/** Removes [start, end): the whole line when nothing else is on it, else with the blanks before it. */
function removeSpan(text: string, start: number, end: number): string {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const newline = text.indexOf('\n', end);
  const lineEnd = newline === -1 ? text.length : newline;
  if (/^[ \t]*$/.test(text.slice(lineStart, start)) && /^[ \t]*$/.test(text.slice(end, lineEnd))) {
    return text.slice(0, lineStart) + text.slice(Math.min(lineEnd + 1, text.length));
  }
  let from = start;
  while (from > lineStart && (text[from - 1] === ' ' || text[from - 1] === '\t')) from--;
  return text.slice(0, from) + text.slice(end);
}
