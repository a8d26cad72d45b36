import type { GraphQLObjectType } from 'graphql';
import { byKeyReferenceFields, nestedReferences, nestedSnapshotLocations, uncheckedParentRelations } from './insert-planner';
import type { SnapshotLocation, WriteModel } from '../startup/write-model/write-model-types';
import { derivedValuesKeyedAt, wholeSetProblem } from './derived-paths';
import { pathsOverlap } from '../documents/read-path';
import { storedPathsOf } from '../startup/storage-map/stored-paths';
import { copyPathOf } from '../startup/write-model/build-write-model';

/**
 * What a mutation's write unit does: one entry per WriteUnit call. A hand-written mutation declares it
 * next to its resolver and passes it in `writePlans` (the project config's, or createDocjoin's); a
 * generated one (`@create`, `@update`, `@delete`) has it derived from its directive
 * (generated-mutations.ts). The estimate prices it with the write model before the mutation runs
 * (estimate-write-unit.ts), and the unit refuses to send more commands than it allows.
 */
export type WriteOperation =
  /** `WriteUnit.requireOne`: one read of at most one document. */
  | { readonly kind: 'requireOne'; readonly typeName: string }
  /**
   * `WriteUnit.updateSource`: `fields` (GraphQL names) set on the document picked by `by`, `_id` or a
   * unique stored path (`symbol`); another path costs a read first when some snapshot copies the fields.
   */
  | { readonly kind: 'updateSource'; readonly typeName: string; readonly by: string; readonly fields: readonly string[] }
  /**
   * `WriteUnit.insert`: `preloaded` names the references whose sources the resolver passes in (no read,
   * but where some role reads the target's collection in part and the unit did not read them itself);
   * `maxKeys` bounds the keys of each list reference (`Book.authors`) and of each snapshot inside an
   * embedded array (`Order.lines.product`), which one read fetches.
   */
  | {
      readonly kind: 'insert';
      readonly typeName: string;
      readonly preloaded?: readonly string[];
      readonly maxKeys?: Readonly<Record<string, number>>;
      /** The references the new document can hold (default: every one of the type); the others cost no read. */
      readonly holds?: readonly string[];
    }
  /** `WriteUnit.changeReference` of a single by-key relation (`Task.owner`). */
  | { readonly kind: 'changeReference'; readonly coordinate: string }
  /** `WriteUnit.requireMany`: one read of up to `maxKeys` documents by `_id`. */
  | { readonly kind: 'requireMany'; readonly typeName: string; readonly maxKeys: number }
  /**
   * `WriteUnit.delete`: reads the document and each place other documents could reference it, deletes
   * it, reads each bounded array it fed again, and updates the collections it contributed to.
   */
  | { readonly kind: 'delete'; readonly typeName: string };

export type WritePlan = readonly WriteOperation[];

/** One plan per Mutation field, by field name. */
export type MutationWritePlans = Readonly<Record<string, WritePlan>>;

/**
 * Problems with the plans of `mutationType`'s fields, each naming `Mutation.field` and the fix: a field
 * without a plan, or a plan naming types and fields the write unit would refuse. A plan of a field the
 * schema does not have is refused before (resolver-map-problems.ts writePlanKeyProblems).
 */
export function findWritePlanProblems(model: WriteModel, mutationType: GraphQLObjectType | null | undefined, plans: MutationWritePlans, readInPart: ReadonlySet<string> = new Set()): string[] {
  const problems: string[] = [];
  for (const fieldName of Object.keys(mutationType?.getFields() ?? {})) {
    const coordinate = `${mutationType!.name}.${fieldName}`;
    const plan = Object.hasOwn(plans, fieldName) ? plans[fieldName] : undefined;
    if (!plan) {
      problems.push(`${coordinate}: no write plan; declare what its write unit does next to its resolver (writePlans in the project config), so its cost can be estimated before it runs`);
      continue;
    }
    for (const operation of plan) {
      const problem = operationProblem(model, operation, readInPart);
      if (problem) problems.push(`${coordinate}: write plan ${describeOperation(operation)}: ${problem}`);
    }
  }
  return problems;
}

function operationProblem(model: WriteModel, operation: WriteOperation, readInPart: ReadonlySet<string>): string | undefined {
  switch (operation.kind) {
    case 'requireOne':
      return collectionProblem(model, operation.typeName);
    case 'updateSource': {
      const type = model.storageMap.types.get(operation.typeName);
      if (type?.collection === undefined) return collectionProblem(model, operation.typeName);
      const stored = [...type.fields.values()].flatMap((field) => (field.kind === 'stored' && !field.isId ? [field] : []));
      const unknown = operation.fields.filter((name) => !stored.some((field) => field.fieldName === name));
      if (unknown.length > 0) return `${unknown.join(', ')} ${unknown.length === 1 ? 'is not a stored field' : 'are not stored fields'} of ${operation.typeName}`;
      const paths = operation.fields.map((name) => stored.find((field) => field.fieldName === name)!.path);
      const wholeSet = operation.fields.map((name, index) => wholeSetProblem(model, operation.typeName, name, paths[index]!)).find((problem) => problem !== undefined);
      if (wholeSet) return wholeSet;
      const mirrored = mirroredReferenceSet(model, operation.typeName, operation.fields, paths);
      if (mirrored) return mirrored;
      const clash = paths.findIndex((path, index) => paths.slice(0, index).some((earlier) => pathsOverlap(earlier, path)));
      if (clash >= 0) {
        const earlier = paths.findIndex((path) => pathsOverlap(path, paths[clash]!));
        return `${operation.typeName}.${operation.fields[clash]} (at ${paths[clash]}) and ${operation.typeName}.${operation.fields[earlier]} (at ${paths[earlier]}) are stored one at or inside the other, and one update cannot set both; set one of them`;
      }
      if (operation.by !== '_id' && !stored.some((field) => field.path === operation.by)) return `by: "${operation.by}" is neither _id nor a stored path of ${operation.typeName}`;
      return sharedCollectionProblem(model, operation.typeName, 'update', paths);
    }
    case 'insert': {
      const problem = collectionProblem(model, operation.typeName) ?? sharedCollectionProblem(model, operation.typeName, 'insert');
      if (problem) return problem;
      const references = byKeyReferenceFields(model, operation.typeName);
      const nested = [
        ...nestedSnapshotLocations(model, operation.typeName).map((location) => ({ coordinate: location.coordinate, collection: location.sourceCollection })),
        ...nestedReferences(model, operation.typeName).filter((reference) => reference.lists > 0).map((reference) => ({ coordinate: reference.coordinate, collection: reference.collection })),
      ];
      const stray = (operation.preloaded ?? []).filter((name) => !references.some((field) => field.coordinate === name) && !nested.some((list) => list.coordinate === name));
      if (stray.length > 0) return `preloaded ${stray.join(', ')}: not a by-key reference of ${operation.typeName}`;
      const listReferences = [...references.filter((field) => field.isList).map((field) => ({ coordinate: field.coordinate, collection: field.shapes.join!.collection })), ...nested];
      // A preloaded list is read too where some role reads its collection in part (estimate-write-unit.ts readsPreloaded).
      const lists = listReferences
        .filter(({ coordinate, collection }) => (!operation.preloaded?.includes(coordinate) || readInPart.has(collection)) && (operation.holds === undefined || operation.holds.includes(coordinate)))
        .map(({ coordinate }) => coordinate);
      // A parent some role reads in part is read whatever the plan says the input gives (a claim may preset its key).
      for (const parent of uncheckedParentRelations(model, operation.typeName)) if (parent.keyIsList && readInPart.has(parent.collection)) lists.push(parent.coordinate);
      for (const coordinate of lists) {
        const max = operation.maxKeys?.[coordinate];
        if (max === undefined || !Number.isSafeInteger(max) || max < 1) return `${coordinate} is a list of references read in one find; declare the most keys it can hold, maxKeys: { "${coordinate}": n }`;
      }
      return undefined;
    }
    case 'requireMany':
      if (!Number.isSafeInteger(operation.maxKeys) || operation.maxKeys < 1) return `maxKeys must be a whole number of at least 1, got ${operation.maxKeys}`;
      return collectionProblem(model, operation.typeName);
    case 'delete':
      return collectionProblem(model, operation.typeName) ?? sharedCollectionProblem(model, operation.typeName, 'delete');
    case 'changeReference': {
      const field = model.storageMap.relations.get(operation.coordinate);
      const join = field?.shapes.join;
      if (!field || join?.direction !== 'byKey' || field.isList) return `${operation.coordinate} is not a single by-key @join`;
      const snapshot = field.shapes.snapshot;
      if (snapshot) return `${operation.coordinate} keeps a snapshot of its ${field.targetType} at "${snapshot.path}", and changeReference sets only the key inside it: the old ${field.targetType}'s copied fields would stay beside the new key; replace the document (delete, then insert) to re-point it`;
      const copiedIn = model.snapshots.find((location) => location.sourceType === field.typeName && location.fields.some((copied) => copied.sourcePath === join.localField));
      if (copiedIn) return `${operation.coordinate}'s key "${join.localField}" is copied into ${copiedIn.coordinate}, and changeReference does not update copies: they would keep the old key; drop the key from that snapshot's fields`;
      const array = model.boundedArrays.find((candidate) => candidate.childType === field.typeName && candidate.childKey === join.localField);
      if (array) return `${operation.coordinate}'s key "${join.localField}" picks which ${field.typeName}s ${array.coordinate} holds, and changeReference does not rebuild that array: the old ${array.coordinate.split('.')[0]} would keep the ${field.typeName} and the new one miss it; replace the document (delete, then insert) to move it`;
      const sorted = model.boundedArrays.find((candidate) => candidate.childType === field.typeName && candidate.sort.some((key) => key.path === join.localField));
      if (sorted) return `${operation.coordinate}'s key "${join.localField}" orders ${sorted.coordinate}, and changeReference does not rebuild that array: its ${field.typeName}s would stay in the old order; sort the array by another field, or replace the document (delete, then insert)`;
      const keyed = derivedValuesKeyedAt(model, field.typeName, join.localField);
      if (keyed) return `${operation.coordinate}'s key "${join.localField}" is the key ${keyed.rule} finds its children by, and changeReference does not recount them: it would stay as it was for the old key; replace the document (delete, then insert) to re-point it`;
      return collectionProblem(model, field.typeName) ?? sharedCollectionProblem(model, field.typeName, 'update', [join.localField]);
    }
    default: {
      const never: never = operation;
      return `unknown operation ${JSON.stringify(never)}`;
    }
  }
}

/**
 * An update setting the key of a reference an @inverse list mirrors (`Task.ownerId` of `Task.owner`,
 * listed in `Person.tasks`): updateSource moves no id between those lists, nor a counter of them;
 * changeReference does, for a single reference.
 */
function mirroredReferenceSet(model: WriteModel, typeName: string, fields: readonly string[], paths: readonly string[]): string | undefined {
  for (const inverse of model.inverses) {
    const index = inverse.truthType === typeName ? paths.indexOf(inverse.truthPath) : -1;
    if (index < 0) continue;
    const truth = model.storageMap.relations.get(inverse.of);
    const instead = truth?.isList ? 'replace the document (delete, then insert)' : `re-point it with changeReference('${inverse.of}', …), which moves it`;
    return `${typeName}.${fields[index]} (at ${paths[index]}) is the key of ${inverse.of}, which ${inverse.coordinate} mirrors, and updateSource moves no id between those lists (nor counts of them); leave it out of the update and ${instead}`;
  }
  return undefined;
}

function collectionProblem(model: WriteModel, typeName: string): string | undefined {
  return model.storageMap.types.get(typeName)?.collection === undefined ? `${typeName} is not a @collection type` : undefined;
}

/**
 * A write through `typeName` to a collection another type also reads, where a snapshot, a bounded
 * array or an inverse keeps that other type's documents by type (totals and counters go by collection),
 * so the write would leave it stale:
 * - a snapshot's copies: a delete, or an update setting a copied field (a new document has no copies);
 * - a bounded array's whole copies: an update (insert and delete push and refill by collection);
 * - an inverse's lists: a delete, an update setting the truth, an insert through a type that stores it
 *   (a field at its path, or a reference keyed by it).
 * `paths`: the stored paths an update sets.
 */
function sharedCollectionProblem(model: WriteModel, typeName: string, kind: 'insert' | 'update' | 'delete', paths: readonly string[] = []): string | undefined {
  const type = model.storageMap.types.get(typeName);
  const collection = type?.collection;
  const sets = (path: string) => paths.some((set) => pathsOverlap(set, path));
  // A field at the path: stored, embedded, a snapshot's copy, or a reference whose key it is.
  const stores = (path: string) => type !== undefined && [...type.fields.keys()].some((name) => storedPathsOf(type, name).some((stored) => pathsOverlap(stored, path)));
  const kept = [
    ...model.snapshots
      .filter((location) => kind === 'delete' || (kind === 'update' && location.fields.some((copied) => sets(copied.sourcePath))))
      .map((location) => ({ coordinate: location.coordinate, collection: location.sourceCollection, type: location.sourceType, keeps: 'copies' })),
    ...model.boundedArrays.filter(() => kind === 'update').map((array) => ({ coordinate: array.coordinate, collection: array.childCollection, type: array.childType, keeps: 'holds' })),
    ...model.inverses
      .filter((inverse) => kind === 'delete' || (kind === 'update' ? sets(inverse.truthPath) : stores(inverse.truthPath)))
      .map((inverse) => ({ coordinate: inverse.coordinate, collection: inverse.truthCollection, type: inverse.truthType, keeps: 'lists' })),
  ].find((rule) => rule.collection === collection && rule.type !== typeName);
  if (!kept) return kind === 'insert' ? foreignCopiesProblem(model, typeName, stores) : undefined;
  return `${typeName} shares the collection "${collection}" with ${kept.type}, whose documents ${kept.coordinate} ${kept.keeps}, and ${article(kind)} ${kind} through ${typeName} would leave ${kept.coordinate} stale; write those documents through ${kept.type}'s mutations`;
}

/**
 * An insert through `typeName` into a collection whose documents another type keeps snapshot copies in,
 * where `typeName` stores a field at, around or inside a copy (`Draft.author: JSON` where Post.author's
 * copy is): the new document's copy would be whatever the input gave, never filled from its source.
 */
function foreignCopiesProblem(model: WriteModel, typeName: string, stores: (path: string) => boolean): string | undefined {
  const collection = model.storageMap.types.get(typeName)?.collection;
  const own = model.snapshots.filter((location) => holderOf(location) === typeName);
  for (const location of model.snapshots) {
    const holder = holderOf(location);
    const path = copyPathOf(location);
    if (location.collection !== collection || holder === typeName || !stores(path)) continue;
    // The type's own snapshot at the same place fills every field of the other's copy from the same source.
    if (own.some((mine) => fillsCopiesOf(mine, location))) continue;
    return `${typeName} shares the collection "${collection}" with ${holder}, whose documents hold ${location.coordinate}'s copies at ${path}, and ${typeName} stores a field there, so an insert through ${typeName} could write a copy docjoin never filled from its ${location.sourceType}; insert those documents through ${holder}'s mutations, or store ${typeName}'s field elsewhere`;
  }
  return undefined;
}

function holderOf(location: SnapshotLocation): string {
  return location.coordinate.split('.')[0]!;
}

function fillsCopiesOf(mine: SnapshotLocation, other: SnapshotLocation): boolean {
  return (
    copyPathOf(mine) === copyPathOf(other) &&
    mine.segments.length === other.segments.length &&
    mine.segments.every((segment, index) => segment.isArray === other.segments[index]!.isArray) &&
    mine.key === other.key &&
    mine.sourceCollection === other.sourceCollection &&
    other.fields.every((field) => mine.fields.some((filled) => filled.name === field.name && filled.sourcePath === field.sourcePath))
  );
}

function article(kind: 'insert' | 'update' | 'delete'): string {
  return kind === 'delete' ? 'a' : 'an';
}

/** `updateSource(Author)`, `changeReference(Task.owner)`: for messages. */
export function describeOperation(operation: WriteOperation): string {
  return `${operation.kind}(${operation.kind === 'changeReference' ? operation.coordinate : operation.typeName})`;
}
