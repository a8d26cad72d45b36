import type { Db, Document } from 'mongodb';
import { readPath, type SnapshotLocation } from '../gateway';
import { cloneValue, sameValue } from '../reconcile/canonical-value';
import { fetchSnapshotSources } from '../reconcile/check-snapshot';
import type { Check } from '../reconcile/reconcile';
import type { DriftReport } from '../reconcile/reconcile-types';
import type { Repair } from '../reconcile/scan-batches';

export interface KeyMove {
  /** The snapshot added (a top-level one: `Book.publisher` at `publisher`). */
  readonly location: SnapshotLocation;
  /** The reference the key moves from: `publisherId`, or an id array `partIds`. */
  readonly from: string;
  /**
   * Which side is the truth where both exist: the old reference while a gateway on the old schema
   * writes it (before the schema change), the copy once the new schema (which writes only the copy)
   * is declared.
   */
  readonly copyIsTruth: boolean;
}

/**
 * The check that gives every parent its copy: the key from the reference (`{ id: publisherId }`, one
 * copy per id of an array), the fields from the source, as reconcile's snapshot fix would set them.
 * The reference stays, for a gateway on the old schema. Each repair is guarded by both values as read,
 * so a parent written meanwhile is left to the next pass.
 */
export function keyMoveCheck(db: Db, move: KeyMove): Check {
  const { location, from } = move;
  const path = location.segments[0]!.path;
  const isList = location.segments[0]!.isArray;
  return {
    coordinate: location.coordinate,
    kind: 'snapshot',
    collection: location.collection,
    projection: { _id: 1, [from]: 1, [path]: 1 },
    async check(batch: Document[], report: DriftReport): Promise<Repair[]> {
      const wanted = batch.map((parent) => ({ _id: parent._id, [path]: wantedCopies(parent) }));
      const sources = await fetchSnapshotSources(db, location, wanted);
      const repairs: Repair[] = [];
      batch.forEach((parent, index) => {
        const want = wanted[index]!;
        sources.drifted(want, report);
        sources.correct(want);
        const have = readPath(parent, path);
        if (want[path] === undefined || sameValue(have, want[path])) return;
        repairs.push({ id: parent._id, filter: { _id: parent._id, [from]: readPath(parent, from) ?? null, [path]: have ?? null }, update: { $set: { [path]: want[path] } } });
      });
      return repairs;
    },
  };

  /** The copies the parent should hold, keyed by the truth side; undefined: none, and none is there. */
  function wantedCopies(parent: Document): unknown {
    const have = readPath(parent, path);
    if (move.copyIsTruth && have !== undefined && have !== null) return cloneValue(have);
    const reference = readPath(parent, from);
    // No reference: no copy either (the old schema unset it).
    if (reference === undefined || reference === null) return have === undefined ? undefined : isList ? [] : null;
    const keys = Array.isArray(reference) ? reference : [reference];
    const copies = keys.map((key) => ({ [location.key]: key }));
    return isList ? copies : copies[0];
  }
}

/**
 * An index for every index of `collection` that reads `from`, with the moved key in its place: the
 * reverse joins now read `to` (`publisher.id`). The old ones stay for a gateway on the old schema.
 * Returns the keys of the indexes created (none when they exist).
 */
export async function indexMovedKey(db: Db, collection: string, from: string, to: string): Promise<Document[]> {
  const created: Document[] = [];
  for (const index of await db.collection(collection).listIndexes().toArray()) {
    const key = index.key as Document;
    if (!Object.hasOwn(key, from)) continue;
    const moved = Object.fromEntries(Object.entries(key).map(([path, direction]) => [path === from ? to : path, direction]));
    // Key order matters in an index, so compare the entries in order.
    const exists = (await db.collection(collection).listIndexes().toArray()).some((candidate) => JSON.stringify(Object.entries(candidate.key as Document)) === JSON.stringify(Object.entries(moved)));
    if (exists) continue;
    await db.collection(collection).createIndex(moved, { ...(index.unique === true && { unique: true }), ...(index.sparse === true && { sparse: true }) });
    created.push(moved);
  }
  return created;
}
