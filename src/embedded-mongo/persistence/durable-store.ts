import { Store, type StoreOptions } from '../storage/store';
import { decodeChange } from './change-codec';
import { DataDirectory } from './data-directory';
import { Journal } from './journal';
import { decodeEntries } from './record-frame';
import { replayChange } from './replay-change';
import { snapshotChanges } from './snapshot-changes';

/** Compaction rewrites the whole state, so it should come rarely: about once per 64 MiB of changes. */
const DEFAULT_COMPACT_AFTER_BYTES = 64 * 1024 * 1024;

export interface DurableStoreOptions {
  /** Created when missing. One server at a time may use it (nothing locks it). */
  readonly dataDir: string;
  /** See JournalOptions.fsync; default false. */
  readonly fsync?: boolean;
  /** Journal size that triggers a compaction; default 64 MiB. */
  readonly compactAfterBytes?: number;
  readonly store?: StoreOptions;
}

/** What a start found in the data directory. */
export interface RecoveryReport {
  /** Changes replayed from the journal, on top of the snapshot. */
  readonly journalRecords: number;
  /** Bytes of a record cut off at the end of the journal (the process was killed mid-write), not replayed. */
  readonly ignoredBytes: number;
}

export interface DurableStore {
  readonly store: Store;
  readonly recovery: RecoveryReport;
  /** Closes the journal; the store must not change after this. */
  close(): void;
}

/**
 * The store a data directory holds: its snapshot, then the journal's changes since (stopping at a
 * record cut off mid-write). The directory is compacted at once, and the store journals every
 * further change there before applying it.
 */
export function openDurableStore(options: DurableStoreOptions): DurableStore {
  const compactAfterBytes = options.compactAfterBytes ?? DEFAULT_COMPACT_AFTER_BYTES;
  if (!Number.isSafeInteger(compactAfterBytes) || compactAfterBytes < 1) {
    throw new TypeError(`openDurableStore: option "compactAfterBytes" must be a positive integer, got ${String(options.compactAfterBytes)}`);
  }
  const directory = new DataDirectory(options.dataDir);
  const store = new Store(options.store);
  const snapshot = directory.readSnapshot();
  replayRecords(store, snapshot.records, directory.snapshotPath);
  const journal = directory.readJournal();
  let recovery: RecoveryReport = { journalRecords: 0, ignoredBytes: 0 };
  if (journal.generation === snapshot.generation) {
    replayRecords(store, journal.records, directory.journalPath);
    recovery = { journalRecords: journal.records.length, ignoredBytes: journal.trailingBytes };
  } else if (journal.generation !== undefined && journal.generation > snapshot.generation) {
    throw new Error(
      `${directory.journalPath} continues generation ${journal.generation} but ${directory.snapshotPath} is of generation ${snapshot.generation}: the snapshot is missing or was replaced by an older one`,
    );
  }
  // else: no journal, or one the snapshot already holds (a compaction stopped before truncating it)
  const appender = Journal.start(directory, snapshot.generation, () => snapshotChanges(store), { fsync: options.fsync ?? false, compactAfterBytes });
  store.journalChanges(appender);
  return { store, recovery, close: () => appender.close() };
}

function replayRecords(store: Store, records: readonly Buffer[], file: string): void {
  records.forEach((payload, index) => {
    try {
      replayChange(store, decodeChange(decodeEntries(payload)));
    } catch (error) {
      throw new Error(`${file}: record ${index + 1} cannot be replayed: ${error instanceof Error ? error.message : String(error)}`);
    }
  });
}
