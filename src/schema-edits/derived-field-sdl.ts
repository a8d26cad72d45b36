import { Kind, print, type ConstDirectiveNode, type FieldDefinitionNode } from 'graphql';
import { findField, SdlChangeError, type SchemaFile } from './snapshot-sdl-change';

/**
 * The text edit that declares a new derived field beside the relation it derives from: a `@counter`,
 * a `@total`, or a bounded array (the subset pattern: the first `limit` children, in the relation's order, kept in
 * the parent). Pure: files in, the changed file's new text out, the rest of the text byte for byte.
 */

export interface NewFieldChange {
  readonly file: string;
  readonly text: string;
  /** The field was already declared as asked (a rerun after --write): the text is unchanged. */
  readonly existed: boolean;
}

/** `coordinate: Int! @counter(of: "<of>")`, declared on the line after `of`. */
export function addCounterSdl(files: readonly SchemaFile[], coordinate: string, of: string): NewFieldChange {
  const { source, field, name, indent } = relationBeside(files, coordinate, of);
  const existing = declared(files, coordinate);
  if (existing) {
    const counts = directive(existing, 'counter')?.arguments?.find((argument) => argument.name.value === 'of')?.value;
    if (counts?.kind === Kind.STRING && counts.value === of) return { file: source.file, text: source.text, existed: true };
    throw new SdlChangeError(`${coordinate} is already declared, and not as @counter(of: "${of}"); pick another field name`);
  }
  return insertAfter(source, field, `\n${indent}${name}: Int! @counter(of: ${JSON.stringify(of)})`);
}

/** `coordinate: <type>! @total(of: "<of>", field: "<field>")`, declared on the line after `of`. */
export function addTotalSdl(files: readonly SchemaFile[], coordinate: string, of: string, field: string, type: string): NewFieldChange {
  const { source, field: relation, name, indent } = relationBeside(files, coordinate, of);
  const existing = declared(files, coordinate);
  if (existing) {
    const totals = directive(existing, 'total')?.arguments;
    const argument = (argumentName: string) => totals?.find((candidate) => candidate.name.value === argumentName)?.value;
    const ofValue = argument('of');
    const fieldValue = argument('field');
    if (ofValue?.kind === Kind.STRING && ofValue.value === of && fieldValue?.kind === Kind.STRING && fieldValue.value === field) return { file: source.file, text: source.text, existed: true };
    throw new SdlChangeError(`${coordinate} is already declared, and not as @total(of: "${of}", field: "${field}"); pick another field name`);
  }
  return insertAfter(source, relation, `\n${indent}${name}: ${type}! @total(of: ${JSON.stringify(of)}, field: ${JSON.stringify(field)})`);
}

/**
 * `coordinate: [Child!]! @embedded @join(<of's join arguments>, limit: N) @read(strategy: EMBEDDED)`,
 * declared after `of`, which must be a reverse join with a sort (the order that picks the first N).
 */
export function addBoundedArraySdl(files: readonly SchemaFile[], coordinate: string, of: string, limit: number): NewFieldChange {
  const { source, field, name, indent } = relationBeside(files, coordinate, of);
  const join = directive(field, 'join');
  const argument = (argumentName: string) => join?.arguments?.find((candidate) => candidate.name.value === argumentName);
  if (!join || !argument('foreignField')) throw new SdlChangeError(`${of} is not a reverse @join (children pointing at the parent, with foreignField); a bounded array copies such children`);
  if (!argument('sort')) throw new SdlChangeError(`${of}'s @join has no sort; a bounded array keeps the first ${limit} children in an order, so give the join a sort (e.g. sort: "-createdAt")`);
  const existing = declared(files, coordinate);
  if (existing) {
    const existingJoin = directive(existing, 'join');
    if (!directive(existing, 'embedded') || !existingJoin) throw new SdlChangeError(`${coordinate} is already declared, and not as an @embedded copy of ${of}; pick another field name`);
    const asked = `${joinArguments(join)}, limit: ${limit}`;
    const declaredLimit = existingJoin.arguments?.find((candidate) => candidate.name.value === 'limit');
    const declaredJoin = `${joinArguments(existingJoin)}, limit: ${declaredLimit ? print(declaredLimit.value) : 'none'}`;
    if (declaredJoin === asked) return { file: source.file, text: source.text, existed: true };
    throw new SdlChangeError(`${coordinate} is already declared, as a bounded array with @join(${declaredJoin}), not the first ${limit} of ${of} (@join(${asked})); run this with the declared limit, or change the SDL by hand`);
  }
  const copied = join.arguments!.filter((candidate) => candidate.name.value !== 'limit').map((candidate) => source.text.slice(candidate.loc!.start, candidate.loc!.end));
  const type = source.text.slice(field.type.loc!.start, field.type.loc!.end);
  const lines = [`${name}: ${type}`, `  @embedded`, `  @join(${[...copied, `limit: ${limit}`].join(', ')})`, `  @read(strategy: EMBEDDED)`];
  return insertAfter(source, field, lines.map((line) => `\n${indent}${line}`).join(''));
}

/** The relation `of` and where the new field goes: both of one type, `of` declared in the schema files. */
function relationBeside(files: readonly SchemaFile[], coordinate: string, of: string): { source: SchemaFile; field: FieldDefinitionNode; name: string; indent: string } {
  const [typeName, name] = coordinate.split('.') as [string, string];
  if (of.split('.')[0] !== typeName) throw new SdlChangeError(`${coordinate} must derive from a relation of ${typeName} itself; got ${of}`);
  const { source, field } = findField(files, of);
  const lineStart = source.text.lastIndexOf('\n', field.loc!.start - 1) + 1;
  const indent = /^[ \t]*/.exec(source.text.slice(lineStart, field.loc!.start))![0];
  return { source, field, name, indent };
}

function declared(files: readonly SchemaFile[], coordinate: string): FieldDefinitionNode | undefined {
  try {
    return findField(files, coordinate).field;
  } catch (error) {
    if (error instanceof SdlChangeError) return undefined;
    throw error;
  }
}

/** A join's arguments but its limit, in a canonical order: what two copies of one relation share. */
function joinArguments(join: ConstDirectiveNode): string {
  return (join.arguments ?? [])
    .filter((argument) => argument.name.value !== 'limit')
    .map((argument) => `${argument.name.value}: ${print(argument.value)}`)
    .sort()
    .join(', ');
}

function directive(field: FieldDefinitionNode, name: string) {
  return field.directives?.find((candidate) => candidate.name.value === name);
}

function insertAfter(source: SchemaFile, field: FieldDefinitionNode, insertion: string): NewFieldChange {
  const end = field.loc!.end;
  return { file: source.file, text: source.text.slice(0, end) + insertion + source.text.slice(end), existed: false };
}
