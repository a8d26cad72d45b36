import { Long, UUID, type Document } from 'bson';
import { dataCommands } from '../../../../../src/embedded-mongo/commands/data';
import { Store } from '../../../../../src/embedded-mongo/storage/store';

/**
 * The write commands called in-process, with no driver serialising documents in between: the only
 * place where a caller's object and a stored document could share memory.
 */
const context = { db: 'db', connectionId: 1 };

function setUp(): { store: Store; run: (command: Document) => Promise<Document> } {
  const store = new Store();
  const commands = dataCommands(store);
  return { store, run: async (command) => commands[Object.keys(command)[0]!]!(command, context) };
}

const firstBatch = (reply: Document): Document[] => (reply.cursor as { firstBatch: Document[] }).firstBatch;

describe('copy on write, in-process', () => {
  it('stores a copy: changing the inserted object afterwards changes nothing stored', async () => {
    const { run } = setUp();
    const doc = { _id: 1, list: [1, 2], inner: { v: 'original' } };
    await run({ insert: 'c', documents: [doc] });
    doc.list.push(3);
    doc.inner.v = 'mutated';
    expect(firstBatch(await run({ find: 'c', filter: {} }))).toEqual([{ _id: 1, list: [1, 2], inner: { v: 'original' } }]);
  });

  it('hands out frozen documents: a reply cannot be changed into the store', async () => {
    const { run } = setUp();
    await run({ insert: 'c', documents: [{ _id: 1, inner: { v: 'original' } }] });
    const [read] = firstBatch(await run({ find: 'c', filter: {} }));
    expect(() => {
      (read!.inner as Document).v = 'mutated';
    }).toThrow(TypeError);
    expect(firstBatch(await run({ find: 'c', filter: {} }))).toEqual([{ _id: 1, inner: { v: 'original' } }]);
  });
});

describe('writes outside a transaction wait for the transaction holding their document', () => {
  const lsid = { id: new UUID() };

  it('answers after the commit, and applies on top of what the transaction committed', async () => {
    const { run } = setUp();
    await run({ insert: 'c', documents: [{ _id: 'x', n: 0 }] });
    const txn = { lsid, txnNumber: Long.fromNumber(1), autocommit: false };
    await run({ update: 'c', updates: [{ q: { _id: 'x' }, u: { $inc: { n: 1 } } }], ...txn, startTransaction: true });
    let settled = false;
    const outside = run({ update: 'c', updates: [{ q: { _id: 'x' }, u: { $inc: { n: 10 } } }] }).finally(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(settled).toBe(false);
    await run({ commitTransaction: 1, ...txn });
    expect(await outside).toEqual({ n: 1, nModified: 1 });
    expect(firstBatch(await run({ find: 'c', filter: {} }))).toEqual([{ _id: 'x', n: 11 }]);
  });

  it('skips a document that no longer matches once the transaction committed', async () => {
    const { run } = setUp();
    await run({ insert: 'c', documents: [{ _id: 'x', n: 0 }, { _id: 'y', n: 0 }] });
    const txn = { lsid, txnNumber: Long.fromNumber(1), autocommit: false };
    await run({ update: 'c', updates: [{ q: { _id: 'x' }, u: { $set: { n: 5 } } }], ...txn, startTransaction: true });
    const outside = run({ delete: 'c', deletes: [{ q: { n: 0 }, limit: 0 }] });
    await run({ commitTransaction: 1, ...txn });
    expect(await outside).toEqual({ n: 1 });
    expect(firstBatch(await run({ find: 'c', filter: {} }))).toEqual([{ _id: 'x', n: 5 }]);
  });
});
