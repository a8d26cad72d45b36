import type { Db, Document } from 'mongodb';
import { readPath, writePath, type SnapshotLocation } from '../gateway';
import { cloneValue, sameValue } from './canonical-value';
import { countMissingCopies, fetchSnapshotSources, objectsAt, objectsByPath } from './check-snapshot';
import type { DriftReport } from './reconcile-types';
import type { Check, Repair } from './scan-batches';

export interface KeyMove {
  /** The snapshot added: a top-level one (`Book.publisher` at `publisher`), or one inside embedded copies (`Order.lines.product`). */
  readonly location: SnapshotLocation;
  /**
   * The reference the key moves from, in the object that holds the copy: `publisherId` in a book, an id
   * array `partIds`, or `productId` in each of an order's `lines`.
   */
  readonly from: string;
  /**
   * Which side is the truth where both exist: the old reference while a gateway on the old schema
   * writes it (before the schema change), the copy once the new schema (which writes only the copy)
   * is declared.
   */
  readonly copyIsTruth: boolean;
}

/**
 * The check that gives every parent its copies: the key from the reference (`{ id: publisherId }`, one
 * copy per id of an array), the fields from the source, as reconcile's snapshot fix would set them.
 * The reference stays, for a gateway on the old schema. A copy inside embedded objects is set in each of
 * them, each by its own path (`lines.2.product`), so nothing else of the array is rewritten through
 * JavaScript (a double that reads as a whole number would be stored back as an int). Each repair is
 * guarded by the values as read, so a parent written meanwhile is left to the next pass.
 */
export function keyMoveCheck(db: Db, move: KeyMove): Check {
  const { location, from } = move;
  const top = location.segments[0]!.path;
  const holders = location.segments.slice(0, -1);
  const copy = location.segments[location.segments.length - 1]!;
  // A top-level copy's reference sits beside it in the document; a nested one's inside `top`.
  const nested = holders.length > 0;
  return {
    coordinate: location.coordinate,
    kind: 'snapshot',
    collection: location.collection,
    projection: nested ? { _id: 1, [top]: 1 } : { _id: 1, [from]: 1, [top]: 1 },
    async check(batch: Document[], report: DriftReport): Promise<Repair[]> {
      const wanted = batch.map(wantedDocument);
      const sources = await fetchSnapshotSources(db, location, wanted);
      const repairs: Repair[] = [];
      batch.forEach((parent, index) => {
        const want = wanted[index]!;
        sources.drifted(want, report);
        sources.correct(want);
        countMissingCopies(want, location, report);
        const have = readPath(parent, top);
        const wantTop = readPath(want, top);
        if (wantTop === undefined || sameValue(have, wantTop)) return;
        const guard = nested ? { [top]: have ?? null } : { [from]: readPath(parent, from) ?? null, [top]: have ?? null };
        const set = nested ? changedCopies(parent, want) : { [top]: wantTop };
        if (Object.keys(set).length === 0) return;
        repairs.push({ id: parent._id, filter: { _id: parent._id, ...guard }, update: { $set: set } });
      });
      return repairs;
    },
  };

  /** The parent's `top` as it should be: every copy set from its holder's reference (sources not yet applied). */
  function wantedDocument(parent: Document): Document {
    const want: Document = { _id: parent._id };
    if (!nested) {
      const copies = wantedCopies(parent);
      if (copies !== undefined) writePath(want, top, copies);
      return want;
    }
    const value = readPath(parent, top);
    if (value === undefined) return want;
    writePath(want, top, cloneValue(value));
    for (const holder of objectsAt(want, holders)) {
      const copies = wantedCopies(holder);
      if (copies !== undefined) writePath(holder, copy.path, copies);
    }
    return want;
  }

  /** Each copy of `want` that differs from `parent`'s, by its whole-document path (`lines.2.product`). */
  function changedCopies(parent: Document, want: Document): Document {
    const had = objectsByPath(parent, holders);
    const set: Document = {};
    for (const [path, holder] of objectsByPath(want, holders)) {
      const copies = readPath(holder, copy.path);
      if (copies !== undefined && !sameValue(readPath(had.get(path), copy.path), copies)) set[`${path}.${copy.path}`] = copies;
    }
    return set;
  }

  /**
   * The copies `holder` should hold, keyed by the truth side; undefined: none, and none is there. A null
   * copy of a nullable field is the new schema's "none"; only an absent one (never written), or a null
   * one where the field is required, falls back to the reference.
   */
  function wantedCopies(holder: Document): unknown {
    const have = readPath(holder, copy.path);
    if (move.copyIsTruth && have !== undefined && (have !== null || !location.required)) return cloneValue(have);
    const reference = readPath(holder, from);
    // No reference: no copy either (the old schema unset it).
    if (reference === undefined || reference === null) return have === undefined ? undefined : copy.isArray ? [] : null;
    const keys = Array.isArray(reference) ? reference : [reference];
    const copies = keys.map((key) => ({ [location.key]: key }));
    return copy.isArray ? copies : copies[0];
  }
}

/** Where a moved key is stored, in whole-document paths: `publisherId` → `publisher.id`, or `lines.productId` → `lines.product.id`. */
export function movedKeyPaths(move: Pick<KeyMove, 'location' | 'from'>): { from: string; to: string } {
  const holders = move.location.segments.slice(0, -1).map((segment) => segment.path);
  return { from: [...holders, move.from].join('.'), to: [...move.location.segments.map((segment) => segment.path), move.location.key].join('.') };
}

