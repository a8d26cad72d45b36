import { copyFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Decimal128, EJSON, ObjectId, type Document } from 'bson';
import { parseCollation } from '../../../../src/embedded-mongo/query';
import { decodeChange } from '../../../../src/embedded-mongo/persistence/change-codec';
import { DataDirectory } from '../../../../src/embedded-mongo/persistence/data-directory';
import { openDurableStore, type DurableStore } from '../../../../src/embedded-mongo/persistence/durable-store';
import { decodeEntries } from '../../../../src/embedded-mongo/persistence/record-frame';
import { replayChange } from '../../../../src/embedded-mongo/persistence/replay-change';
import { documentKey } from '../../../../src/embedded-mongo/storage/document-key';
import { Store } from '../../../../src/embedded-mongo/storage/store';
import { storableDocument } from '../../../../src/embedded-mongo/storage/stored-document';

const dirs: string[] = [];
const open: DurableStore[] = [];

afterEach(() => {
  for (const durable of open.splice(0)) durable.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function dataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'docjoin-durable-unit-'));
  dirs.push(dir);
  return dir;
}

function openStore(dataDir: string, compactAfterBytes?: number): DurableStore {
  const durable = openDurableStore({ dataDir, compactAfterBytes });
  open.push(durable);
  return durable;
}

function close(durable: DurableStore): void {
  durable.close();
  open.splice(open.indexOf(durable), 1);
}

function insert(store: Store, collection: string, docs: Document[]): void {
  const view = store.view(store.ensureCollection('app', collection), undefined);
  for (const doc of docs) view.insert(storableDocument(doc));
}

/** Everything a store holds, as canonical Extended JSON (exact BSON types, natural order). */
function dump(store: Store): string {
  const databases = store.databaseNames().map((database) => ({
    database,
    collections: store.collections(database).map((collection) => ({
      name: collection.name,
      options: collection.options,
      indexes: collection.indexDefinitions(),
      documents: [...collection.currentDocuments()],
    })),
    views: store.viewCatalog.list(database).map((view) => ({ ...view, collation: view.collation?.toDocument() })),
  }));
  return EJSON.stringify(databases, { relaxed: false });
}

/** A store that has seen every kind of change: collections with options, indexes, views, writes, a transaction, `$out`. */
function changeEverything(store: Store): void {
  store.createCollection('app', 'people', { collation: parseCollation({ locale: 'fr' })!.toDocument() });
  const people = store.collection('app', 'people')!;
  store.createIndexes(people, [
    { name: 'email_1', key: { email: 1 }, unique: true, sparse: false, options: {} },
    { name: 'old_1', key: { old: 1 }, unique: false, sparse: true, options: { partialFilterExpression: { old: { $gt: 1 } } } },
  ]);
  insert(store, 'people', [
    { _id: new ObjectId('65a1b2c3d4e5f60718293a4b'), email: 'a', balance: Decimal128.fromString('1.10'), at: new Date(0) },
    { _id: 2, email: 'b' },
    { _id: 3, email: 'c' },
  ]);
  const live = store.view(people, undefined);
  live.replace(documentKey(2), storableDocument({ _id: 2, email: 'b2' }));
  live.remove(documentKey(3));
  store.dropIndexes(people, ['old_1']);
  store.createView('app', { name: 'bs', viewOn: 'people', pipeline: [{ $match: { email: /^b/ } }], collation: undefined });
  store.createView('app', { name: 'gone', viewOn: 'people', pipeline: [], collation: undefined });
  store.dropView('app', 'gone');
  insert(store, 'dropped', [{ _id: 1 }]);
  store.dropCollection('app', 'dropped');
  store.replaceCollection('app', 'copy', [storableDocument({ _id: 'x', n: 1 })]);
  store.createCollection('scratch', 'things', {});
  store.dropDatabase('scratch');
  const transaction = store.sessions.start('session', 1n);
  transaction.view(people).insert(storableDocument({ _id: 4, email: 'd' }));
  transaction.view(store.ensureCollection('app', 'ledger')).insert(storableDocument({ _id: 'tx' }));
  store.sessions.commit('session', 1n);
  // neither aborted nor open transactions leave anything
  const aborted = store.sessions.start('session', 2n);
  aborted.view(people).insert(storableDocument({ _id: 5, email: 'aborted' }));
  store.sessions.abort('session', 2n);
  store.sessions.start('session', 3n).view(people).insert(storableDocument({ _id: 6, email: 'open' }));
}

describe('openDurableStore', () => {
  it('gives back every change after a reopen, exactly', () => {
    const dir = dataDir();
    const first = openStore(dir);
    changeEverything(first.store);
    const before = dump(first.store);
    expect(before).not.toContain('"aborted"');
    expect(before).not.toContain('"open"');
    close(first);
    const second = openStore(dir);
    expect(second.recovery).toEqual({ journalRecords: expect.any(Number), ignoredBytes: 0 });
    expect(second.recovery.journalRecords).toBeGreaterThan(10);
    expect(dump(second.store)).toBe(before);
    close(second);
    // the second open compacted everything into the snapshot
    const third = openStore(dir);
    expect(third.recovery.journalRecords).toBe(0);
    expect(dump(third.store)).toBe(before);
  });

  it("keeps which transaction each session committed, through the journal and then the snapshot, so a retried commit succeeds", () => {
    const dir = dataDir();
    const first = openStore(dir);
    changeEverything(first.store);
    close(first);
    for (const reopened of [openStore(dir), openStore(dir)]) {
      // The journal, then (compacted on the first reopen) the snapshot: transaction 1 committed, 2 never did.
      expect(() => reopened.store.sessions.commit('session', 1n)).not.toThrow();
      expect(() => reopened.store.sessions.commit('session', 2n)).toThrow(expect.objectContaining({ code: 251 }));
      close(reopened);
    }
  });

  it('forgets a commit older than the session timeout, as MongoDB forgets the session', () => {
    const store = new Store();
    store.sessions.restoreCommitted({ session: 'old', txnNumber: 1n, at: Date.now() - 31 * 60_000 });
    store.sessions.restoreCommitted({ session: 'recent', txnNumber: 1n, at: Date.now() - 29 * 60_000 });
    expect(() => store.sessions.commit('old', 1n)).toThrow(expect.objectContaining({ code: 251 }));
    expect(() => store.sessions.commit('recent', 1n)).not.toThrow();
    expect([...store.sessions.committedTransactions()].map((committed) => committed.session)).toEqual(['recent']);
  });

  it('replays each change idempotently: applying every record twice leaves what applying it once does', () => {
    const dir = dataDir();
    const first = openStore(dir);
    changeEverything(first.store);
    const before = dump(first.store);
    close(first);
    const records = new DataDirectory(dir).readJournal().records;
    const twice = new Store();
    for (const payload of records) {
      replayChange(twice, decodeChange(decodeEntries(payload)));
      replayChange(twice, decodeChange(decodeEntries(payload)));
    }
    expect(dump(twice)).toBe(before);
  });

  it('opens a collection saved with a validator this server does not enforce ($jsonSchema, level moderate: accepted before validators were): kept as listed, not enforced', () => {
    const dir = dataDir();
    const saved = [
      { validator: { $jsonSchema: { bsonType: 'object', required: ['name'] } } },
      { validator: { name: { $type: 'string' } }, validationLevel: 'moderate' },
    ];
    new DataDirectory(dir).writeSnapshot(1, saved.map((options, index) => ({ kind: 'createCollection', database: 'app', name: `saved${index}`, options })));
    const { store } = openStore(dir);
    insert(store, 'saved0', [{ _id: 1 }]);
    insert(store, 'saved1', [{ _id: 1, name: 7 }]);
    expect(store.collections('app').map((collection) => [collection.name, collection.options, collection.size])).toEqual([
      ['saved0', saved[0], 1],
      ['saved1', saved[1], 1],
    ]);
  });

  it('compacts once the journal passes the size limit, and keeps every document', () => {
    const dir = dataDir();
    const first = openStore(dir, 4_096);
    const docs = Array.from({ length: 500 }, (_, i) => ({ _id: i, text: `document ${i} `.repeat(4) }));
    insert(first.store, 'items', docs);
    // without compaction the journal would hold 500 records of ~80 bytes
    expect(statSync(path.join(dir, 'journal')).size).toBeLessThan(4_096 + 200);
    close(first);
    const second = openStore(dir);
    expect([...second.store.collection('app', 'items')!.currentDocuments()]).toEqual(docs);
  });

  it('does not replay a journal the snapshot already holds (a compaction stopped before truncating it)', () => {
    const dir = dataDir();
    const first = openStore(dir);
    const people = first.store.ensureCollection('app', 'people');
    first.store.createIndexes(people, [{ name: 'email_1', key: { email: 1 }, unique: true, sparse: false, options: {} }]);
    first.store.dropIndexes(people, ['email_1']);
    insert(first.store, 'people', [
      { _id: 1, email: 'same' },
      { _id: 2, email: 'same' },
    ]);
    close(first);
    const journal = path.join(dir, 'journal');
    copyFileSync(journal, `${journal}.old`);
    close(openStore(dir));
    copyFileSync(`${journal}.old`, journal);
    // replayed on the snapshot, the old journal's unique index would now meet the duplicates
    const reopened = openStore(dir);
    expect(reopened.recovery.journalRecords).toBe(0);
    expect(reopened.store.collection('app', 'people')!.size).toBe(2);
  });

  it('does not apply a change the journal refuses', () => {
    const dir = dataDir();
    const durable = openStore(dir);
    insert(durable.store, 'items', [{ _id: 1 }]);
    close(durable);
    expect(() => insert(durable.store, 'items', [{ _id: 2 }])).toThrow(`the journal ${path.join(dir, 'journal')} is closed`);
    expect(durable.store.collection('app', 'items')!.size).toBe(1);
  });

  it('refuses to start from a damaged snapshot or a journal newer than its snapshot', () => {
    const dir = dataDir();
    close(openStore(dir));
    const snapshot = path.join(dir, 'snapshot');
    const whole = statSync(snapshot).size;
    writeFileSync(snapshot, Buffer.alloc(whole));
    expect(() => openStore(dir)).toThrow(`${snapshot} is damaged: it does not end with its end record`);
    rmSync(snapshot);
    expect(() => openStore(dir)).toThrow(/journal continues generation 1 but .*snapshot is of generation 0/);
  });
});
