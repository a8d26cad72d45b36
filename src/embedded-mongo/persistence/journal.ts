import { closeSync, fdatasyncSync, ftruncateSync } from 'node:fs';
import type { ChangeJournal, StoreChange } from '../storage/store-change';
import { encodeChange } from './change-codec';
import { writeFully, type DataDirectory } from './data-directory';
import { encodeFrame } from './record-frame';

export interface JournalOptions {
  /**
   * Also fsync the journal before each reply that follows changes (Store.syncJournal), so they
   * survive a machine crash, not only the process being killed. Costs a disk flush per write command.
   */
  readonly fsync: boolean;
  /** Compact (snapshot, then an empty journal) once the journal has grown to this many bytes. */
  readonly compactAfterBytes: number;
}

/**
 * The append end of a data directory's journal: a durable Store's ChangeJournal. Each change is one
 * record, written with write() before the Store applies it. Once write() returns, the bytes are in
 * the OS page cache, which outlives the process: a kill right after the reply loses nothing.
 */
export class Journal implements ChangeJournal {
  private unsynced = false;
  /** Why the journal stopped: a failed write it could not take back. Every later change fails. */
  private failure: Error | undefined;
  private closed = false;

  private constructor(
    private readonly directory: DataDirectory,
    /** The store's current state as changes (snapshot-changes.ts), for compaction. */
    private readonly state: () => Iterable<StoreChange>,
    private readonly options: JournalOptions,
    private generation: number,
    private fd: number,
    private size: number,
  ) {}

  /**
   * Compacts the directory right away (a snapshot of `state()` continued by generation
   * `generation + 1`, and an empty journal of it), then journals from there.
   */
  static start(directory: DataDirectory, generation: number, state: () => Iterable<StoreChange>, options: JournalOptions): Journal {
    const next = generation + 1;
    directory.writeSnapshot(next, state());
    const { fd, size } = directory.startJournal(next);
    return new Journal(directory, state, options, next, fd, size);
  }

  append(change: StoreChange): void {
    if (this.closed) throw new Error(`the journal ${this.directory.journalPath} is closed`);
    if (this.failure !== undefined) {
      throw new Error(`the journal ${this.directory.journalPath} stopped after a failed write (${this.failure.message}); restart the server`);
    }
    if (this.size >= this.options.compactAfterBytes) this.compact();
    const frame = encodeFrame(encodeChange(change));
    try {
      writeFully(this.fd, frame, this.size);
    } catch (error) {
      this.takeBack();
      throw error;
    }
    this.size += frame.length;
    this.unsynced = true;
  }

  sync(): void {
    if (!this.options.fsync || !this.unsynced || this.closed || this.failure !== undefined) return;
    fdatasyncSync(this.fd);
    this.unsynced = false;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  /**
   * Removes a partly written record, so the next one does not land behind bytes replay would stop
   * at (and be lost). If even that fails, the journal stops.
   */
  private takeBack(): void {
    try {
      ftruncateSync(this.fd, this.size);
    } catch (error) {
      this.failure = error as Error;
    }
  }

  /**
   * Snapshot of the state so far, then an empty journal of the next generation. Called before a
   * change is written, so the snapshot holds every change but that one, which then opens the new journal.
   */
  private compact(): void {
    const next = this.generation + 1;
    // fails without harm: the old snapshot and journal still stand, and stay in use
    this.directory.writeSnapshot(next, this.state());
    let started: { fd: number; size: number };
    try {
      started = this.directory.startJournal(next);
    } catch (error) {
      // the new snapshot is in place, but there is no journal of its generation to write to
      this.failure = error as Error;
      throw error;
    }
    const previous = this.fd;
    this.fd = started.fd;
    this.size = started.size;
    this.generation = next;
    // both files were fsynced: nothing written so far waits for a sync
    this.unsynced = false;
    try {
      closeSync(previous);
    } catch {
      // the old journal is obsolete, and the descriptor is released even when close reports an error
    }
  }
}
