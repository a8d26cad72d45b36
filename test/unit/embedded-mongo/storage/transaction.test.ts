import type { Document } from 'bson';
import { CommandError } from '../../../../src/embedded-mongo/protocol/command-error';
import { documentKey } from '../../../../src/embedded-mongo/storage/document-key';
import { Store } from '../../../../src/embedded-mongo/storage/store';
import { storableDocument } from '../../../../src/embedded-mongo/storage/stored-document';

function seeded(): Store {
  const store = new Store();
  const collection = store.ensureCollection('db', 'accounts');
  const live = store.view(collection, undefined);
  for (const doc of [
    { _id: 'a', balance: 100, owner: 'ann' },
    { _id: 'b', balance: 50, owner: 'bob' },
  ]) {
    live.insert(storableDocument(doc));
  }
  return store;
}

function balances(docs: Iterable<Document>): Record<string, number> {
  return Object.fromEntries([...docs].map((doc) => [doc._id, doc.balance]));
}

function failure(run: () => void): CommandError {
  try {
    run();
  } catch (error) {
    if (error instanceof CommandError) return error;
    throw error;
  }
  throw new Error('expected a CommandError');
}

describe('transactions', () => {
  const accounts = (store: Store) => store.collection('db', 'accounts')!;

  it('buffers writes until commit, then applies them all at once', () => {
    const store = seeded();
    const transaction = store.sessions.start('s1', 1n);
    const inside = store.view(accounts(store), transaction);
    inside.replace(documentKey('a'), storableDocument({ _id: 'a', balance: 70, owner: 'ann' }));
    inside.replace(documentKey('b'), storableDocument({ _id: 'b', balance: 80, owner: 'bob' }));
    inside.insert(storableDocument({ _id: 'c', balance: 0, owner: 'cy' }));

    expect(balances(inside.all())).toEqual({ a: 70, b: 80, c: 0 });
    expect(balances(store.view(accounts(store), undefined).all())).toEqual({ a: 100, b: 50 });

    store.sessions.commit('s1', 1n);
    expect(balances(store.view(accounts(store), undefined).all())).toEqual({ a: 70, b: 80, c: 0 });
    // drivers retry commitTransaction; a second commit of the same transaction succeeds
    expect(() => store.sessions.commit('s1', 1n)).not.toThrow();
  });

  it('discards writes on abort, and later operations get 251 NoSuchTransaction', () => {
    const store = seeded();
    const transaction = store.sessions.start('s1', 1n);
    store.view(accounts(store), transaction).remove(documentKey('a'));
    store.sessions.abort('s1', 1n);
    expect(balances(store.view(accounts(store), undefined).all())).toEqual({ a: 100, b: 50 });
    const error = failure(() => store.sessions.active('s1', 1n));
    expect([error.code, error.codeName, error.errorLabels]).toEqual([251, 'NoSuchTransaction', ['TransientTransactionError']]);
    expect(failure(() => store.sessions.commit('s1', 1n)).code).toBe(251);
  });

  it('reads from the snapshot taken at its start, whatever commits later (including deletes and index lookups)', () => {
    const store = seeded();
    store.createIndexes(accounts(store), [{ name: 'owner_1', key: { owner: 1 }, unique: false, sparse: false, options: {} }]);
    const transaction = store.sessions.start('s1', 1n);
    const live = store.view(accounts(store), undefined);
    live.replace(documentKey('a'), storableDocument({ _id: 'a', balance: 1, owner: 'zed' }));
    live.remove(documentKey('b'));
    live.insert(storableDocument({ _id: 'c', balance: 5, owner: 'ann' }));

    const inside = store.view(accounts(store), transaction);
    expect(balances(inside.all())).toEqual({ a: 100, b: 50 });
    expect(inside.match({ owner: 'ann' }).map((doc) => doc._id)).toEqual(['a']);
    expect(inside.match({ _id: { $in: ['a', 'b', 'c'] } }).map((doc) => doc.balance)).toEqual([100, 50]);
    expect(inside.count()).toBe(2);
    expect(balances(live.all())).toEqual({ a: 1, c: 5 });
  });

  it('drops undo history once no transaction needs it', () => {
    const store = seeded();
    store.sessions.start('s1', 1n);
    store.view(accounts(store), undefined).remove(documentKey('a'));
    expect(accounts(store).changedSince(0)).toEqual([documentKey('a')]);
    store.sessions.endSessions(['s1']);
    expect(accounts(store).changedSince(0)).toEqual([]);
    expect(store.sessions.openTransactions()).toBe(0);
  });

  it('fails with 112 WriteConflict when another open transaction writes the same document', () => {
    const store = seeded();
    const first = store.sessions.start('s1', 1n);
    const second = store.sessions.start('s2', 1n);
    store.view(accounts(store), first).replace(documentKey('a'), storableDocument({ _id: 'a', balance: 1 }));
    const error = failure(() => store.view(accounts(store), second).replace(documentKey('a'), storableDocument({ _id: 'a', balance: 2 })));
    expect([error.code, error.codeName, error.errorLabels]).toEqual([112, 'WriteConflict', ['TransientTransactionError']]);
    // a different document is fine
    store.view(accounts(store), second).replace(documentKey('b'), storableDocument({ _id: 'b', balance: 3 }));
  });

  it('fails with WriteConflict when the document was committed after its snapshot', () => {
    const store = seeded();
    const first = store.sessions.start('s1', 1n);
    const second = store.sessions.start('s2', 1n);
    store.view(accounts(store), first).replace(documentKey('a'), storableDocument({ _id: 'a', balance: 1 }));
    store.sessions.commit('s1', 1n);
    expect(failure(() => store.view(accounts(store), second).remove(documentKey('a'))).code).toBe(112);
  });

  // commands make such writes wait (writeBlocker, below); the commit-time check is storage's safety net
  it('fails at commit when a write outside any transaction changed a document it wrote, and applies nothing', () => {
    const store = seeded();
    const transaction = store.sessions.start('s1', 1n);
    const inside = store.view(accounts(store), transaction);
    inside.replace(documentKey('a'), storableDocument({ _id: 'a', balance: 1 }));
    inside.replace(documentKey('b'), storableDocument({ _id: 'b', balance: 1 }));
    store.view(accounts(store), undefined).replace(documentKey('b'), storableDocument({ _id: 'b', balance: 999 }));
    expect(failure(() => store.sessions.commit('s1', 1n)).code).toBe(112);
    expect(balances(store.view(accounts(store), undefined).all())).toEqual({ a: 100, b: 999 });
    expect(store.sessions.openTransactions()).toBe(0);
  });

  it('checks unique indexes against its own view', () => {
    const store = seeded();
    store.createIndexes(accounts(store), [{ name: 'owner_1', key: { owner: 1 }, unique: true, sparse: false, options: {} }]);
    const transaction = store.sessions.start('s1', 1n);
    const inside = store.view(accounts(store), transaction);
    expect(failure(() => inside.insert(storableDocument({ _id: 'c', owner: 'ann' }))).code).toBe(11000);
    // once its own write frees the key, the key is available inside the transaction
    inside.replace(documentKey('a'), storableDocument({ _id: 'a', owner: 'anna' }));
    inside.insert(storableDocument({ _id: 'c', owner: 'ann' }));
    store.sessions.commit('s1', 1n);
    expect(store.view(accounts(store), undefined).match({ owner: 'ann' }).map((doc) => doc._id)).toEqual(['c']);
  });

  it('starting a newer transaction on a session aborts the older one', () => {
    const store = seeded();
    const old = store.sessions.start('s1', 1n);
    store.view(accounts(store), old).remove(documentKey('a'));
    store.sessions.start('s1', 2n);
    expect(old.state).toBe('aborted');
    expect(failure(() => store.sessions.start('s1', 1n)).codeName).toBe('TransactionTooOld');
  });

  it('claims the unique index entries its writes add or remove: another transaction gets 112, not 11000 at commit', () => {
    const store = seeded();
    store.createIndexes(accounts(store), [{ name: 'owner_1', key: { owner: 1 }, unique: true, sparse: false, options: {} }]);
    const first = store.sessions.start('s1', 1n);
    const second = store.sessions.start('s2', 1n);
    store.view(accounts(store), first).insert(storableDocument({ _id: 'c', owner: 'cy' }));
    expect(failure(() => store.view(accounts(store), second).insert(storableDocument({ _id: 'd', owner: 'cy' }))).code).toBe(112);
    // 'ann' is freed by the first transaction's pending write: the entry is claimed until it ends
    store.view(accounts(store), first).replace(documentKey('a'), storableDocument({ _id: 'a', owner: 'anna' }));
    expect(failure(() => store.view(accounts(store), second).insert(storableDocument({ _id: 'e', owner: 'ann' }))).code).toBe(112);
    // an update that leaves the key as it is writes no index entry, so it conflicts with nobody
    store.view(accounts(store), second).replace(documentKey('b'), storableDocument({ _id: 'b', balance: 1, owner: 'bob' }));
    store.sessions.commit('s1', 1n);
    store.sessions.commit('s2', 1n);
    expect(balances(store.view(accounts(store), undefined).all())).toEqual({ a: undefined, b: 1, c: undefined });
  });

  it('tells writes outside transactions what to wait for: the holder of the document or of a unique entry', async () => {
    const store = seeded();
    store.createIndexes(accounts(store), [{ name: 'owner_1', key: { owner: 1 }, unique: true, sparse: false, options: {} }]);
    const live = store.view(accounts(store), undefined);
    const transaction = store.sessions.start('s1', 1n);
    store.view(accounts(store), transaction).replace(documentKey('a'), storableDocument({ _id: 'a', balance: 1, owner: 'ann' }));
    store.view(accounts(store), transaction).insert(storableDocument({ _id: 'c', owner: 'cy' }));
    expect(live.writeBlocker(documentKey('a'), null)).toBe(transaction.ended);
    expect(live.writeBlocker(documentKey('d'), storableDocument({ _id: 'd', owner: 'cy' }))).toBe(transaction.ended);
    expect(live.writeBlocker(documentKey('d'), storableDocument({ _id: 'd', owner: 'dee' }))).toBeUndefined();
    expect(live.writeBlocker(documentKey('b'), null)).toBeUndefined();
    store.sessions.commit('s1', 1n);
    await transaction.ended;
    expect(live.writeBlocker(documentKey('a'), null)).toBeUndefined();
    expect(live.writeBlocker(documentKey('d'), storableDocument({ _id: 'd', owner: 'cy' }))).toBeUndefined();
  });

  it('aborts a transaction left open longer than the lifetime limit (MongoDB: transactionLifetimeLimitSeconds)', async () => {
    const store = new Store({ transactionLifetimeLimitMs: 20 });
    const transaction = store.sessions.start('s1', 1n);
    store.view(store.ensureCollection('db', 'c'), transaction).insert(storableDocument({ _id: 1 }));
    await transaction.ended;
    expect(transaction.state).toBe('aborted');
    expect(failure(() => store.sessions.commit('s1', 1n)).code).toBe(251);
    expect(store.sessions.openTransactions()).toBe(0);
  });

  it('forgets a session idle past the session timeout, with its last retryable reply, unless its transaction is open', () => {
    jest.useFakeTimers({ now: Date.parse('2026-12-02T00:00:00Z') });
    try {
      const store = new Store({ transactionLifetimeLimitMs: 24 * 3_600_000 });
      let runs = 0;
      const write = () => ({ n: ++runs, ok: 1 });
      expect(store.sessions.retryableWrite('idle', 1n, write)).toEqual({ n: 1, ok: 1 });
      store.sessions.start('open', 1n);
      // Within the timeout a retry gets the first reply.
      jest.setSystemTime(Date.now() + 29 * 60_000);
      expect(store.sessions.retryableWrite('idle', 1n, write)).toEqual({ n: 1, ok: 1 });
      // Past it, the next sweep forgets the idle session (MongoDB would refuse the retry); the open transaction stays.
      jest.setSystemTime(Date.now() + 2 * 60_000);
      store.sessions.retryableWrite('other', 1n, write);
      expect(store.sessions.retryableWrite('idle', 1n, write)).toEqual({ n: 3, ok: 1 });
      expect(store.sessions.openTransactions()).toBe(1);
      // A committed transaction's number cannot start again.
      store.sessions.commit('open', 1n);
      expect(failure(() => store.sessions.start('open', 1n)).code).toBe(256);
    } finally {
      jest.useRealTimers();
    }
  });
});
