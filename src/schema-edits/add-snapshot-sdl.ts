import { type ConstDirectiveNode, type FieldDefinitionNode } from 'graphql';
import { embeddingPlaces, isAtOrUnder, type StorageMap } from '../gateway';
import { findField, SdlChangeError, type SchemaFile } from './snapshot-sdl-change';

/**
 * The text edit that adds a `@snapshot` to a field read by a plain forward `@join`. Two cases:
 * - the key already sits in a sub-document (`@join(localField: "host.id")`): the snapshot copies the
 *   fields beside it, at that sub-document; nothing moves.
 * - the key is a top-level reference (`publisherId`, or an id array `partIds`): the copy goes to `path`
 *   (default: the field's name) and keeps the key (`publisher.id`), so the join and every reverse join
 *   reading the reference in this collection (`Publisher.books`' foreignField) now read it there.
 * Pure: the files and the storage map before the change in, the changed files out.
 */

export interface AddSnapshotChange {
  /** The changed files, each whole. */
  readonly edits: readonly SchemaFile[];
  /** Where the copies go. */
  readonly path: string;
  /** The top-level reference the key moves from; undefined when it already sits in the copies' sub-document. */
  readonly from: string | undefined;
  /** The fields copied, the key's field first. */
  readonly fields: readonly string[];
  /** The field already declares a @snapshot (a rerun after --write): no edit. */
  readonly existed: boolean;
}

interface Edit {
  readonly file: string;
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

export function addSnapshotSdl(files: readonly SchemaFile[], storageMap: StorageMap, coordinate: string, fields: readonly string[], path: string | undefined): AddSnapshotChange {
  const { source, field } = findField(files, coordinate);
  const relation = storageMap.relations.get(coordinate);
  if (!relation) throw new SdlChangeError(`${coordinate} is not a relation field of the schema`);
  const target = storageMap.types.get(relation.targetType);
  const idField = [...(target?.fields.values() ?? [])].find((candidate) => candidate.kind === 'stored' && candidate.isId)?.fieldName;
  const copied = [...new Set([...(idField ? [idField] : []), ...fields])];
  if (relation.shapes.snapshot) return { edits: [], path: relation.shapes.snapshot.path, from: undefined, fields: copied, existed: true };
  const join = relation.shapes.join;
  if (!join || join.direction !== 'byKey' || join.foreignField !== '_id' || !idField) {
    throw new SdlChangeError(`${coordinate} must be read by a plain @join to the _id of its target (localField only) to add a snapshot to it`);
  }
  const joinNode = directive(field, 'join')!;
  const localFieldNode = joinNode.arguments!.find((argument) => argument.name.value === 'localField')!.value;
  const reference = join.localField;
  const dot = reference.lastIndexOf('.');
  const edits: Edit[] = [];
  let copyPath: string;
  let from: string | undefined;
  if (dot !== -1) {
    copyPath = reference.slice(0, dot);
    if (reference.slice(dot + 1) !== 'id') throw new SdlChangeError(`${coordinate}'s key sits at "${reference}"; a snapshot keeps it as "${copyPath}.id"`);
    if (path !== undefined && path !== copyPath) throw new SdlChangeError(`${coordinate}'s key already sits in "${copyPath}"; the copies go there (drop --path ${path})`);
  } else {
    copyPath = path ?? relation.fieldName;
    from = reference;
    refuseOtherReaders(storageMap, coordinate, reference, copyPath);
    edits.push({ file: source.file, start: localFieldNode.loc!.start, end: localFieldNode.loc!.end, text: JSON.stringify(`${copyPath}.id`) });
    const places = embeddingPlaces(storageMap, relation.typeName);
    for (const reverse of storageMap.relations.values()) {
      const reverseJoin = reverse.shapes.join;
      if (reverseJoin?.direction !== 'byReference') continue;
      const place = places.find(({ collection, prefix }) => reverseJoin.collection === collection && reverseJoin.foreignField === `${prefix}${reference}`);
      if (!place) continue;
      const declared = findField(files, reverse.coordinate);
      const foreignField = directive(declared.field, 'join')!.arguments!.find((argument) => argument.name.value === 'foreignField')!.value;
      edits.push({ file: declared.source.file, start: foreignField.loc!.start, end: foreignField.loc!.end, text: JSON.stringify(`${place.prefix}${copyPath}.id`) });
    }
  }
  const snapshot = `@snapshot(path: ${JSON.stringify(copyPath)}, fields: [${copied.map((name) => JSON.stringify(name)).join(', ')}])`;
  edits.push({ file: source.file, start: joinNode.loc!.start, end: joinNode.loc!.start, text: `${snapshot}${separator(source.text, joinNode)}` });
  const read = directive(field, 'read');
  const readsSnapshot = '@read(strategy: SNAPSHOT)';
  if (read) edits.push({ file: source.file, start: read.loc!.start, end: read.loc!.end, text: readsSnapshot });
  else {
    const last = field.directives![field.directives!.length - 1]!;
    edits.push({ file: source.file, start: last.loc!.end, end: last.loc!.end, text: `${separator(source.text, last)}${readsSnapshot}` });
  }
  return { edits: applyEdits(files, edits), path: copyPath, from, fields: copied, existed: false };
}

/**
 * The reference moves into the copy, and a gateway on the new schema writes only the copy: anything
 * else reading the old path, in this type or another over the same collection, would read it stale.
 * Reverse joins are moved with it; the rest is refused.
 */
function refuseOtherReaders(storageMap: StorageMap, coordinate: string, reference: string, copyPath: string): void {
  const [typeName] = coordinate.split('.') as [string];
  const type = storageMap.types.get(typeName)!;
  const sameDocuments = type.collection === undefined ? [type] : [...storageMap.types.values()].filter((other) => other.collection === type.collection);
  for (const field of sameDocuments.flatMap((other) => [...other.fields.values()])) {
    if (field.coordinate === coordinate) continue;
    const paths = field.kind === 'stored' ? [field.path] : [field.shapes.embedded?.path, field.shapes.snapshot?.path, field.shapes.join?.localField].filter((value): value is string => value !== undefined);
    if (paths.some((stored) => isAtOrUnder(stored, reference))) {
      throw new SdlChangeError(`${field.coordinate} reads "${reference}", which the copy replaces; remove it (or read it from ${coordinate}) before adding the snapshot`);
    }
    if (paths.some((stored) => isAtOrUnder(stored, copyPath))) {
      throw new SdlChangeError(`${field.coordinate} already stores data at "${copyPath}"; pass --path to put the copies elsewhere`);
    }
  }
  const filters = [
    ...[...storageMap.roots.values()].filter((root) => root.collection === type.collection).map((root) => ({ coordinate: root.coordinate, conditions: root.conditions })),
    ...[...storageMap.relations.values()].filter((relation) => relation.targetType === typeName).map((relation) => ({ coordinate: relation.coordinate, conditions: relation.listArguments.conditions })),
  ];
  for (const { coordinate: filtering, conditions } of filters) {
    if (conditions.some((condition) => condition.path === reference)) {
      throw new SdlChangeError(`${filtering} filters on "${reference}", which the copy replaces; filter on the relation's copy instead before adding the snapshot`);
    }
  }
}

function directive(field: FieldDefinitionNode, name: string): ConstDirectiveNode | undefined {
  return field.directives?.find((candidate) => candidate.name.value === name);
}

/** What goes between two directives: a newline and the indent when the directive stands on its own line, else a space. */
function separator(text: string, node: ConstDirectiveNode): string {
  const lineStart = text.lastIndexOf('\n', node.loc!.start - 1) + 1;
  const before = text.slice(lineStart, node.loc!.start);
  return /^[ \t]*$/.test(before) ? `\n${before}` : ' ';
}

function applyEdits(files: readonly SchemaFile[], edits: readonly Edit[]): SchemaFile[] {
  return files.flatMap((source) => {
    const mine = edits.filter((edit) => edit.file === source.file).sort((a, b) => b.start - a.start);
    if (mine.length === 0) return [];
    let text = source.text;
    for (const edit of mine) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
    return [{ file: source.file, text }];
  });
}
