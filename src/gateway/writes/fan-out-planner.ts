import type { PlannedUpdate } from './write-steps';
import type { SnapshotLocation, WriteModel } from './write-model-types';

/**
 * Snapshot fan-out: when fields of a `sourceType` document change, every copy of them must change too.
 * For each snapshot location whose source is `sourceType` and which copies a changed field, ONE
 * updateMany: a dotted `$set` for a single copy (`host.name`), `$[e0]` with arrayFilters for copies in
 * arrays (`authors.$[e0].name`, `recentLogs.$[e0].host.name`). `changes` is keyed by GraphQL field name.
 */
export function planSnapshotFanOut(model: WriteModel, sourceType: string, sourceId: unknown, changes: Readonly<Record<string, unknown>>): PlannedUpdate[] {
  const planned: PlannedUpdate[] = [];
  for (const location of model.snapshots) {
    if (location.sourceType !== sourceType) continue;
    const copied = location.fields.filter((field) => field.name in changes);
    if (copied.length === 0) continue;
    planned.push({ collection: location.collection, statement: fanOutStatement(location, sourceId, copied.map((field) => [field.name, changes[field.name]] as const)) });
  }
  return planned;
}

/** Whether some snapshot copies `fieldNames` of `sourceType` (the source update then needs the document's _id). */
export function hasFanOut(model: WriteModel, sourceType: string, fieldNames: readonly string[]): boolean {
  return model.snapshots.some((location) => location.sourceType === sourceType && location.fields.some((field) => fieldNames.includes(field.name)));
}

function fanOutStatement(location: SnapshotLocation, sourceId: unknown, values: ReadonlyArray<readonly [string, unknown]>) {
  const { segments, key } = location;
  const setPrefix: string[] = [];
  const arrayFilters: Record<string, unknown>[] = [];
  segments.forEach((segment, index) => {
    setPrefix.push(segment.path);
    if (!segment.isArray) return;
    const identifier = `e${arrayFilters.length}`;
    setPrefix.push(`$[${identifier}]`);
    // The element matches when the copy below it holds the source's id (dot paths reach through arrays).
    const below = [...segments.slice(index + 1).map((s) => s.path), key].join('.');
    arrayFilters.push({ [`${identifier}.${below}`]: sourceId });
  });
  const $set: Record<string, unknown> = {};
  for (const [name, value] of values) $set[`${setPrefix.join('.')}.${name}`] = value;
  return {
    filter: { [[...segments.map((s) => s.path), key].join('.')]: sourceId },
    update: { $set },
    ...(arrayFilters.length > 0 && { arrayFilters }),
    multi: true,
  };
}
