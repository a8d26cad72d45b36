import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { Document } from 'bson';
import type { StoreChange } from '../storage/store-change';
import { encodeChange } from './change-codec';
import { decodeEntries, encodeFrame, scanFrames } from './record-frame';

/** The file format written here; a file of another format is refused rather than misread. */
const FORMAT_VERSION = 1;

export interface SnapshotContents {
  /** The journal generation that continues this snapshot (0: no snapshot yet). */
  readonly generation: number;
  /** Each record's payload (record-frame.ts), in order. */
  readonly records: readonly Buffer[];
}

export interface JournalContents {
  /** Undefined when there is no journal, or it was cut off before its header was written. */
  readonly generation: number | undefined;
  readonly records: readonly Buffer[];
  /** Bytes of a record cut off mid-write at the end, which are not replayed. */
  readonly trailingBytes: number;
}

/**
 * The files of a durable store's directory:
 * - `snapshot`: the whole state as of the last compaction: `{ op: 'snapshot', format, generation }`,
 *   the records that rebuild it, then `{ op: 'end' }`. Always replaced whole: written to
 *   `snapshot.tmp`, fsynced, then renamed over the old one.
 * - `journal`: `{ op: 'journal', format, generation }`, then one record per change since that snapshot.
 * Only a journal of the snapshot's own generation continues it. An older one is what a compaction
 * had not yet truncated when it stopped, and the snapshot already holds its changes: that is what
 * keeps a restart from applying a change twice.
 */
export class DataDirectory {
  readonly snapshotPath: string;
  readonly journalPath: string;
  private readonly temporarySnapshotPath: string;

  constructor(readonly directory: string) {
    mkdirSync(directory, { recursive: true });
    this.snapshotPath = path.join(directory, 'snapshot');
    this.journalPath = path.join(directory, 'journal');
    this.temporarySnapshotPath = path.join(directory, 'snapshot.tmp');
    // left by a compaction that stopped before its rename: the snapshot it was to replace still stands
    rmSync(this.temporarySnapshotPath, { force: true });
  }

  /** The snapshot's records; throws when it is damaged (it was fsynced before it was put in place). */
  readSnapshot(): SnapshotContents {
    const bytes = readIfExists(this.snapshotPath);
    if (bytes === undefined) return { generation: 0, records: [] };
    const { payloads, trailingBytes } = scanFrames(bytes);
    const first = payloads[0];
    const last = payloads[payloads.length - 1];
    const complete = first !== undefined && last !== undefined && payloads.length >= 2 && trailingBytes === 0 && headerOf(last).op === 'end';
    if (!complete) throw new Error(`${this.snapshotPath} is damaged: it does not end with its end record`);
    return { generation: fileGeneration(headerOf(first), 'snapshot', this.snapshotPath), records: payloads.slice(1, -1) };
  }

  readJournal(): JournalContents {
    const bytes = readIfExists(this.journalPath);
    if (bytes === undefined) return { generation: undefined, records: [], trailingBytes: 0 };
    const { payloads, trailingBytes } = scanFrames(bytes);
    const first = payloads[0];
    if (first === undefined) return { generation: undefined, records: [], trailingBytes };
    return { generation: fileGeneration(headerOf(first), 'journal', this.journalPath), records: payloads.slice(1), trailingBytes };
  }

  /** Replaces the snapshot with `changes`, atomically: an interrupted write leaves the old one in place. */
  writeSnapshot(generation: number, changes: Iterable<StoreChange>): void {
    const fd = openSync(this.temporarySnapshotPath, 'w');
    try {
      let position = 0;
      const write = (frame: Buffer): void => {
        writeFully(fd, frame, position);
        position += frame.length;
      };
      write(encodeFrame([{ op: 'snapshot', format: FORMAT_VERSION, generation }]));
      for (const change of changes) write(encodeFrame(encodeChange(change)));
      write(encodeFrame([{ op: 'end' }]));
      fsyncSync(fd);
    } catch (error) {
      closeSync(fd);
      rmSync(this.temporarySnapshotPath, { force: true });
      throw error;
    }
    closeSync(fd);
    renameSync(this.temporarySnapshotPath, this.snapshotPath);
    this.syncDirectory();
  }

  /** Truncates the journal and starts it at `generation`; returns its open descriptor and size. */
  startJournal(generation: number): { fd: number; size: number } {
    const fd = openSync(this.journalPath, 'w');
    const header = encodeFrame([{ op: 'journal', format: FORMAT_VERSION, generation }]);
    try {
      writeFully(fd, header, 0);
      fsyncSync(fd);
    } catch (error) {
      closeSync(fd);
      throw error;
    }
    this.syncDirectory();
    return { fd, size: header.length };
  }

  /** Makes a rename or a new file in the directory survive a machine crash. */
  private syncDirectory(): void {
    // Windows cannot open a directory to fsync it
    if (process.platform === 'win32') return;
    const fd = openSync(this.directory, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  }
}

/** `writeSync` may write less than asked; writes all of `bytes` at `position`. */
export function writeFully(fd: number, bytes: Buffer, position: number): void {
  let written = 0;
  while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written, position + written);
}

function readIfExists(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function headerOf(payload: Buffer): Document {
  return decodeEntries(payload)[0] ?? {};
}

function fileGeneration(header: Document, op: 'snapshot' | 'journal', file: string): number {
  if (header.op !== op) throw new Error(`${file} is not a docjoin embedded-mongo ${op} (its first record is not one)`);
  if (header.format !== FORMAT_VERSION) throw new Error(`${file} has format ${String(header.format)}; this version reads format ${FORMAT_VERSION}`);
  const generation: unknown = header.generation;
  if (typeof generation !== 'number' || !Number.isInteger(generation) || generation < 1) throw new Error(`${file} has no valid generation`);
  return generation;
}
