import type { UpdateStatement } from '../request/mongo/funnel-writer';
import type { StoredDocument } from '../documents/stored-document';
import { counterCopies } from '../startup/write-model/build-write-model';
import { equalityOperand } from '../documents/key-string';
import { distinct, type PlannedUpdate } from './write-steps';
import type { BoundedArray, CounterRule, SnapshotLocation, WriteModel } from '../startup/write-model/write-model-types';

/**
 * A source update and its snapshot fan-out. `source` writes the source document: its own fields, plus
 * the copies that live only inside it (`Host.recentLogs.host`), so one document is written by one
 * statement. MongoDB refuses `$[e0]` over a path that holds no array (a host stored before
 * `recentLogs` was declared), so where copies live inside the document `source` holds one statement
 * per way its arrays may be there or not, each guarded by that in its filter: exactly one matches the
 * document, and all go in one command. `fanOut` holds one updateMany per place copies live elsewhere.
 */
export interface SourceUpdatePlan {
  readonly source: { readonly collection: string; readonly statements: readonly UpdateStatement[] };
  readonly fanOut: readonly PlannedUpdate[];
}

/**
 * Plans setting `$set` (stored paths) on the `sourceType` document picked by `filter`. `changes` is the
 * same change keyed by GraphQL field name, for the snapshots; with no `sourceId` (a selector other than
 * `_id`) nothing may copy the changed fields (see hasFanOut), so there is nothing to fan out.
 */
export function planSourceUpdate(
  model: WriteModel,
  sourceType: string,
  target: { readonly collection: string; readonly filter: StoredDocument; readonly sourceId: unknown },
  $set: StoredDocument,
  changes: Readonly<Record<string, unknown>>,
): SourceUpdatePlan {
  const sourceId = target.sourceId;
  const inSource = sourceId === undefined ? [] : copiesInSource(model, sourceType, changes);
  const arrays = arraysHoldingCopies(inSource);
  // The document without its arrays first: one matching none, between two statements (no transaction), is refused as not found, and a child's insert creates an array where there was none.
  const statements = subsetsOf(arrays).map((held): UpdateStatement => {
    const sourceSet: Record<string, unknown> = { ...$set };
    const arrayFilters: StoredDocument[] = [];
    for (const { location, values } of inSource) {
      if (!held.includes(outerArrayPath(location))) continue;
      const copy = copyUpdate(location, sourceId, values, arrayFilters.length);
      Object.assign(sourceSet, copy.$set);
      arrayFilters.push(...copy.arrayFilters);
    }
    const guard = Object.fromEntries(arrays.map((path) => [path, held.includes(path) ? { $type: 'array' } : { $not: { $type: 'array' } }]));
    const filter = arrays.length === 0 ? target.filter : { $and: [target.filter, guard] };
    return { filter, update: { $set: sourceSet }, ...(arrayFilters.length > 0 && { arrayFilters }), multi: false };
  });
  return {
    source: { collection: target.collection, statements },
    fanOut: sourceId === undefined ? [] : [...planSnapshotFanOut(model, sourceType, sourceId, changes), ...planBoundedCopyUpdates(model, sourceType, sourceId, $set)],
  };
}

/**
 * How many statements the source update of `fields` (GraphQL field names) holds: one per way the
 * arrays holding copies inside the document may be there or not. A findAndModify (an update moving a
 * total) sends them one by one until one matches.
 */
export function sourceStatementCount(model: WriteModel, sourceType: string, fields: readonly string[]): number {
  return 2 ** arraysHoldingCopies(copiesInSource(model, sourceType, Object.fromEntries(fields.map((name) => [name, null])))).length;
}

function copiesInSource(model: WriteModel, sourceType: string, changes: Readonly<Record<string, unknown>>): ReturnType<typeof copiesOf> {
  return copiesOf(model, sourceType, changes).filter(({ location }) => location.inSourceDocument);
}

/** The arrays of the source document the copies in it sit in, each once. */
function arraysHoldingCopies(inSource: ReturnType<typeof copiesOf>): string[] {
  return distinct(inSource.map(({ location }) => outerArrayPath(location)));
}

/** The path of the first array a copy inside its source document sits in (`recentLogs` for `recentLogs.host`): a bounded array, so there is one. */
function outerArrayPath(location: SnapshotLocation): string {
  const first = location.segments.findIndex((segment) => segment.isArray);
  return location.segments
    .slice(0, first + 1)
    .map((segment) => segment.path)
    .join('.');
}

/** Every subset of `paths`, the empty one first. */
function subsetsOf(paths: readonly string[]): string[][] {
  return paths.reduce<string[][]>((subsets, path) => subsets.flatMap((subset) => [subset, [...subset, path]]), [[]]);
}

/**
 * A `sourceType` document may also sit, whole, in its parents' bounded arrays (`Post.recentComments`
 * holds comments): its copy there changes with it, ONE updateMany per array with `$[e0]` on its `_id`.
 * (A change of the array's sort or parent key would need the array rebuilt; generated updates refuse
 * those fields, see generated-mutations.ts.)
 */
export function planBoundedCopyUpdates(model: WriteModel, sourceType: string, sourceId: unknown, $set: StoredDocument): PlannedUpdate[] {
  return boundedCopiesOf(model, sourceType).map((array) => ({
    collection: array.collection,
    statement: {
      filter: { [`${array.path}._id`]: sourceId },
      update: { $set: Object.fromEntries(Object.entries($set).map(([path, value]) => [`${array.path}.$[e0].${path}`, value])) },
      arrayFilters: [{ 'e0._id': sourceId }],
      multi: true,
    },
  }));
}

/** The bounded arrays holding whole copies of `sourceType` documents. */
export function boundedCopiesOf(model: WriteModel, sourceType: string): BoundedArray[] {
  return model.boundedArrays.filter((array) => array.childType === sourceType);
}

/**
 * Snapshot fan-out: when fields of a `sourceType` document change, every copy of them must change too.
 * For each snapshot location outside the source document whose source is `sourceType` and which copies
 * a changed field, ONE updateMany: a dotted `$set` for a single copy (`host.name`), `$[e0]` with
 * arrayFilters for copies in arrays (`authors.$[e0].name`). `changes` is keyed by GraphQL field name.
 */
export function planSnapshotFanOut(model: WriteModel, sourceType: string, sourceId: unknown, changes: Readonly<Record<string, unknown>>): PlannedUpdate[] {
  const planned: PlannedUpdate[] = [];
  for (const { location, values } of copiesOf(model, sourceType, changes)) {
    if (location.inSourceDocument) continue;
    const { $set, arrayFilters } = copyUpdate(location, sourceId, values, 0);
    planned.push({
      collection: location.collection,
      statement: { filter: { [[...location.segments.map((s) => s.path), location.key].join('.')]: sourceId }, update: { $set }, ...(arrayFilters.length > 0 && { arrayFilters }), multi: true },
    });
  }
  return planned;
}

/**
 * The collections planSnapshotFanOut writes when `fieldNames` of a `sourceType` document change, each
 * once: the unit sends one update command per collection (groupByCollection).
 */
export function fanOutCollections(model: WriteModel, sourceType: string, fieldNames: readonly string[]): string[] {
  const changes = Object.fromEntries(fieldNames.map((name) => [name, undefined]));
  return distinct([
    ...copiesOf(model, sourceType, changes).flatMap(({ location }) => (location.inSourceDocument ? [] : [location.collection])),
    ...boundedCopiesOf(model, sourceType).map((array) => array.collection),
  ]);
}

/** Whether some copy of `fieldNames` of `sourceType` exists elsewhere (the source update then needs the document's _id). */
export function hasFanOut(model: WriteModel, sourceType: string, fieldNames: readonly string[]): boolean {
  const paths = new Set(fieldNames.map((name) => storedPathOf(model, sourceType, name)));
  return (
    boundedCopiesOf(model, sourceType).length > 0 ||
    model.snapshots.some((location) => location.sourceType === sourceType && location.fields.some((field) => paths.has(field.sourcePath)))
  );
}

/** Where `sourceType` stores its field `name`: copies go by it, so a second field at the same path (`@path`) changes them too. */
function storedPathOf(model: WriteModel, sourceType: string, name: string): string {
  const field = model.storageMap.types.get(sourceType)?.fields.get(name);
  return field?.kind === 'stored' ? field.path : name;
}

type CopiedValues = ReadonlyArray<readonly [string, unknown]>;

/** Every snapshot location of `sourceType` copying a changed field, with the new values it copies. */
function copiesOf(model: WriteModel, sourceType: string, changes: Readonly<Record<string, unknown>>): Array<{ location: SnapshotLocation; values: CopiedValues }> {
  const changedAt = new Map(Object.entries(changes).map(([name, value]) => [storedPathOf(model, sourceType, name), value]));
  const found: Array<{ location: SnapshotLocation; values: CopiedValues }> = [];
  for (const location of model.snapshots) {
    if (location.sourceType !== sourceType) continue;
    const values = location.fields.filter((field) => changedAt.has(field.sourcePath)).map((field) => [field.name, changedAt.get(field.sourcePath)] as const);
    if (values.length > 0) found.push({ location, values });
  }
  return found;
}

/** The `$set` of one location's copies, and the arrayFilters it needs (identifiers from `e<firstIdentifier>`). */
function copyUpdate(location: SnapshotLocation, sourceId: unknown, values: CopiedValues, firstIdentifier: number): { $set: StoredDocument; arrayFilters: StoredDocument[] } {
  const { prefix, arrayFilters } = copyPlace(location, sourceId, firstIdentifier);
  const $set: StoredDocument = {};
  for (const [name, value] of values) $set[`${prefix}.${name}`] = value;
  return { $set, arrayFilters };
}

/**
 * Where one location's copies of `sourceId` are, as an update path: the dotted prefix, with `$[e<n>]`
 * for each array crossed, and the arrayFilters that pick the elements holding the source's id.
 */
function copyPlace(location: SnapshotLocation, sourceId: unknown, firstIdentifier: number): { prefix: string; arrayFilters: StoredDocument[] } {
  const { segments, key } = location;
  const prefix: string[] = [];
  const arrayFilters: StoredDocument[] = [];
  segments.forEach((segment, index) => {
    prefix.push(segment.path);
    if (!segment.isArray) return;
    const identifier = `e${firstIdentifier + arrayFilters.length}`;
    prefix.push(`$[${identifier}]`);
    // The element matches when the copy below it holds the source's id (dot paths reach through arrays).
    const below = [...segments.slice(index + 1).map((s) => s.path), key].join('.');
    arrayFilters.push({ [`${identifier}.${below}`]: equalityOperand(sourceId) });
  });
  return { prefix: prefix.join('.'), arrayFilters };
}

/**
 * A counter copied by snapshots changes with every counted write, not by an update of its document:
 * each copy of the parent's takes the same `$inc`, ONE updateMany per place. A copy lacking the field (a
 * snapshot widened with it, its backfill under way) is left without it, so it is still joined rather
 * than read as a count started from nothing.
 */
export function planCounterCopyUpdates(model: WriteModel, counter: CounterRule, parentId: unknown, delta: number): PlannedUpdate[] {
  return counterCopies(model, counter).map(({ location, name }) => {
    const { prefix, arrayFilters } = copyPlace(location, parentId, 0);
    const filter: StoredDocument = { [[...location.segments.map((segment) => segment.path), location.key].join('.')]: equalityOperand(parentId) };
    const innermost = arrayFilters[arrayFilters.length - 1];
    const lastArray = location.segments.map((segment) => segment.isArray).lastIndexOf(true);
    if (innermost) {
      const below = location.segments.slice(lastArray + 1).map((segment) => segment.path);
      innermost[[`e${arrayFilters.length - 1}`, ...below, name].join('.')] = { $exists: true };
    } else filter[`${prefix}.${name}`] = { $exists: true };
    return { collection: location.collection, statement: { filter, update: { $inc: { [`${prefix}.${name}`]: delta } }, ...(arrayFilters.length > 0 && { arrayFilters }), multi: true } };
  });
}
