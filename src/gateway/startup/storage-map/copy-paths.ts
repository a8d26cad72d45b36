import { isAtOrUnder } from '../../documents/read-path';
import type { EmbeddedShape, RelationField, SnapshotShape, StorageMap } from './storage-map-types';

/** A copy of another type's documents (an embedded document or array, a snapshot) that a stored path runs into. */
export interface CopyOnPath {
  readonly field: RelationField;
  readonly copy: EmbeddedShape | SnapshotShape;
  /** The path names the copy itself, not a value inside it. */
  readonly whole: boolean;
  /**
   * The rest of the path as a stored path of the target's documents (a snapshot keeps its fields by
   * name); undefined when the path is the whole copy, or the copy holds no such field.
   */
  readonly inTarget: string | undefined;
}

/** The copies held by `typeName` documents that the stored `path` runs into (or names), but `except`'s own. */
export function copiesOnPath(storageMap: StorageMap, typeName: string, path: string, except?: RelationField): CopyOnPath[] {
  const copies: CopyOnPath[] = [];
  for (const field of storageMap.types.get(typeName)?.fields.values() ?? []) {
    if (field.kind !== 'relation' || field === except) continue;
    for (const copy of [field.shapes.embedded, field.shapes.snapshot]) {
      if (!copy || !isAtOrUnder(path, copy.path)) continue;
      const whole = path === copy.path;
      const rest = whole ? undefined : path.slice(copy.path.length + 1);
      const inTarget = rest === undefined || copy.kind === 'embedded' ? rest : snapshotPath(storageMap, field.targetType, copy, rest);
      copies.push({ field, copy, whole, inTarget });
    }
  }
  return copies;
}

/** A copy held inside a stored value: the relation that reads it, and its shape. */
export interface HeldCopy {
  readonly field: RelationField;
  readonly copy: EmbeddedShape | SnapshotShape;
}

/**
 * The copies held at or under the stored `path` of `typeName` documents (`path` empty: all of them), but
 * `except`'s own, with the copies inside an embedded one's documents: what a value read whole at `path`
 * shows of them. `below`: only those strictly under `path` (and inside them), not one at it.
 */
export function copiesUnder(storageMap: StorageMap, typeName: string, path: string, except?: RelationField, seen: ReadonlySet<string> = new Set(), below = false): HeldCopy[] {
  if (seen.has(typeName)) return [];
  const held: HeldCopy[] = [];
  for (const field of storageMap.types.get(typeName)?.fields.values() ?? []) {
    if (field.kind !== 'relation' || field === except) continue;
    for (const copy of [field.shapes.embedded, field.shapes.snapshot]) {
      if (!copy || (path !== '' && !isAtOrUnder(copy.path, path)) || (below && copy.path === path)) continue;
      held.push({ field, copy });
      if (copy.kind === 'embedded') held.push(...copiesUnder(storageMap, field.targetType, '', undefined, new Set([...seen, typeName])));
    }
  }
  return held;
}

/** The stored paths, in the target's documents, of the fields a snapshot copies (its key: `_id`). */
export function snapshotStoredPaths(storageMap: StorageMap, targetType: string, snapshot: SnapshotShape): string[] {
  return snapshot.fields.map((name) => snapshotPath(storageMap, targetType, snapshot, name)).filter((path) => path !== undefined);
}

/** A path inside a snapshot copy (its fields by name) as the stored path in the target's documents; undefined when the copy holds no such field. */
function snapshotPath(storageMap: StorageMap, targetType: string, snapshot: SnapshotShape, rest: string): string | undefined {
  const [name, ...inside] = rest.split('.');
  if (name === snapshot.key) return ['_id', ...inside].join('.');
  const stored = snapshot.fields.includes(name!) ? storageMap.types.get(targetType)?.fields.get(name!) : undefined;
  return stored?.kind === 'stored' ? [stored.path, ...inside].join('.') : undefined;
}

/**
 * The list a stored path of `typeName` documents runs through (`Type.field`): a list field, or an
 * embedded or snapshot array on the way; undefined when every step holds one value (or the SDL does
 * not declare it).
 */
export function listOnPath(storageMap: StorageMap, typeName: string, path: string): string | undefined {
  for (const field of storageMap.types.get(typeName)?.fields.values() ?? []) {
    if (field.kind === 'stored' && field.valueType.isList && isAtOrUnder(path, field.path)) return field.coordinate;
  }
  for (const { field, inTarget } of copiesOnPath(storageMap, typeName, path)) {
    if (field.isList) return field.coordinate;
    const below = inTarget === undefined ? undefined : listOnPath(storageMap, field.targetType, inTarget);
    if (below) return below;
  }
  return undefined;
}
