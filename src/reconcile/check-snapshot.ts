import type { Db, Document } from 'mongodb';
import { keyString, readPath, type SnapshotLocation } from '../gateway';
import { sameValue } from './canonical-value';
import type { Repair } from './scan-batches';
import { holdsOneOf, presentKeys } from './lookup-keys';
import type { DriftReport } from './reconcile-types';

/**
 * A snapshot location: every copy's fields must equal its source's. A drifted document gets each wrong
 * field set by its own path (`lines.2.product.name`), so nothing else of the document is rewritten
 * through JavaScript (a Long or a whole-number double would come back an int), guarded by the top-level
 * value that was checked, so a write that raced the scan is never overwritten.
 */
export function snapshotCheck(db: Db, location: SnapshotLocation, options: CopyFilling = {}) {
  const top = location.segments[0]!.path;
  return {
    projection: { _id: 1, [top]: 1 },
    async check(batch: Document[], report: DriftReport): Promise<Repair[]> {
      const sources = await fetchSnapshotSources(db, location, batch, options);
      const repairs: Repair[] = [];
      for (const document of batch) {
        countMissingCopies(document, location, report);
        if (!sources.drifted(document, report)) continue;
        repairs.push({ id: document._id, filter: { _id: document._id, [top]: readPath(document, top) ?? null }, update: { $set: sources.corrections(document) } });
      }
      return repairs;
    },
  };
}

/**
 * Counts into `report.missing` the copies at `location` in `document` that are lost: each element of a
 * list of copies that is a value but not a document (a string or a bare ObjectId, which every read
 * drops), whether or not the list itself may be null; and, where the schema requires the copy, one that
 * is absent, null or anything but a document (a list of them: anything but a list). A null element is
 * not counted.
 */
export function countMissingCopies(document: Document, location: SnapshotLocation, report: DriftReport): void {
  const copy = location.segments[location.segments.length - 1]!;
  for (const holder of objectsAt(document, location.segments.slice(0, -1))) {
    const value = readPath(holder, copy.path);
    if (copy.isArray && Array.isArray(value)) report.missing += value.filter((element) => element !== null && !isObject(element)).length;
    else if (location.required && !isObject(value)) report.missing += 1;
  }
}

/** How a check fills copies. */
export interface CopyFilling {
  /**
   * A copy lacking a field whose source lacks it too is to be given the null the gateway's writes copy
   * (a backfill's job: reads take a lacking field for one not filled yet, and join). Otherwise it agrees.
   */
  readonly fillAbsent?: boolean;
}

/** The sources of a batch's copies at one snapshot location, and what they say about each document. */
export interface SnapshotSources {
  /** Whether any copy in `document` differs from its source; counts its copies (and dangling ones) into `tally`. */
  drifted(document: Document, tally?: { entries: number; dangling: number }): boolean;
  /** Sets every copy in `document` to its source's fields, in place, as the snapshot fix writes them. Dangling copies stay as they are. */
  correct(document: Document): void;
  /** The same fix as `$set` paths: each field of a copy that differs, by its whole-document path (`lines.2.product.name`). */
  corrections(document: Document): Document;
}

/**
 * Fetches the sources of every copy at `location` in `documents` (documents of `location.collection`,
 * or anything shaped like them) with one `$in`. Shared by the snapshot check and the bounded-array
 * check, so both decide a copy's true value the same way. Copies compare with their sources as the
 * gateway reads both (see canonicalValue), and are corrected to the sources' exact BSON values.
 */
export async function fetchSnapshotSources(db: Db, location: SnapshotLocation, documents: readonly Document[], { fillAbsent = false }: CopyFilling = {}): Promise<SnapshotSources> {
  const ids = new Map<string, unknown>();
  for (const document of documents) {
    for (const copy of objectsAt(document, location.segments)) {
      const id = copy[location.key];
      if (id !== undefined && id !== null) ids.set(keyString(id), id);
    }
  }
  const projection = Object.fromEntries([['_id', 1], ...location.fields.map((field) => [field.sourcePath, 1])]);
  const sources = new Map<string, Document>();
  const keys = presentKeys(ids.values());
  if (keys.length > 0) {
    // Read with their BSON types (a Long stays a Long), which is what a repair copies.
    for (const source of await db.collection(location.sourceCollection).find(holdsOneOf('_id', keys) as Document, { projection, promoteValues: false }).toArray()) {
      sources.set(keyString(source._id), source);
    }
  }
  // Walks the copies in `document`, calling `differs` for each field that differs from its source. Returns whether any did.
  const visit = (document: Document, differs?: (path: string, copy: Record<string, unknown>, name: string, expected: unknown) => void, tally?: { entries: number; dangling: number }, normalize = false): boolean => {
    let drifted = false;
    for (const [path, copy] of objectsByPath(document, location.segments)) {
      if (tally) tally.entries += 1;
      const source = sources.get(keyString(copy[location.key]));
      if (!source) {
        if (tally) tally.dangling += 1;
        continue;
      }
      for (const field of location.fields) {
        // A field the source lacks is null in the copy, as the gateway's writes copy it (and as GraphQL answers both).
        const expected = readPath(source, field.sourcePath) ?? null;
        if (sameValue(copy[field.name] ?? null, expected) && !(fillAbsent && copy[field.name] === undefined)) {
          // Corrected in place, an absent field becomes the null it equals: whole copies (a bounded array's) then compare equal.
          if (normalize && copy[field.name] === undefined) copy[field.name] = null;
          continue;
        }
        drifted = true;
        differs?.(path, copy, field.name, expected);
      }
    }
    return drifted;
  };
  return {
    drifted: (document, tally) => visit(document, undefined, tally),
    correct: (document) => void visit(document, (_path, copy, name, expected) => (copy[name] = expected), undefined, true),
    corrections: (document) => {
      const set: Document = {};
      visit(document, (path, _copy, name, expected) => (set[`${path}.${name}`] = expected));
      return set;
    },
  };
}

/** The objects at the end of `segments`, e.g. a snapshot's copies (mutable references into `container`). */
export function objectsAt(container: Record<string, unknown>, segments: SnapshotLocation['segments']): Record<string, unknown>[] {
  return [...objectsByPath(container, segments).values()];
}

/** The same, by their whole-document path with array indexes (`lines.2`), for updates that set each one alone. */
export function objectsByPath(container: Record<string, unknown>, segments: SnapshotLocation['segments']): Map<string, Record<string, unknown>> {
  const found = new Map<string, Record<string, unknown>>();
  const walk = (value: unknown, path: string, rest: SnapshotLocation['segments']) => {
    if (!isObject(value)) return;
    const [segment, ...after] = rest;
    if (!segment) {
      found.set(path, value);
      return;
    }
    const next = segment.path.split('.').reduce<unknown>((current, part) => (isObject(current) ? current[part] : undefined), value);
    const at = path === '' ? segment.path : `${path}.${segment.path}`;
    if (Array.isArray(next)) next.forEach((item, index) => walk(item, `${at}.${index}`, after));
    else walk(next, at, after);
  };
  walk(container, '', segments);
  return found;
}

/** A document or an embedded one; not an array, nor a BSON value (an ObjectId, a Date), which holds no copy. */
function isObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
