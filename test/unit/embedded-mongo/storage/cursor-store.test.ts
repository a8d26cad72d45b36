import { Long, serialize } from 'bson';
import { CommandError } from '../../../../src/embedded-mongo/protocol/command-error';
import { CursorStore } from '../../../../src/embedded-mongo/storage/cursor-store';
import { encodeBsonDocument } from '../../../../src/embedded-mongo/wire/bson-document';

const docs = Array.from({ length: 250 }, (_, i) => ({ _id: i }));

describe('CursorStore', () => {
  it('returns 101 documents in the first batch by default and the rest on getMore', () => {
    const cursors = new CursorStore();
    const first = cursors.open('db.c', docs);
    expect(first.documents).toHaveLength(101);
    expect(first.id.isZero()).toBe(false);
    const rest = cursors.getMore(first.id.toBigInt(), 'db.c', undefined);
    expect(rest.documents.map((doc) => doc._id)).toEqual(docs.slice(101).map((doc) => doc._id));
    expect(rest.id).toEqual(Long.ZERO);
    expect(cursors.openCount).toBe(0);
  });

  it('honours batchSize, projects each batch, and closes when exhausted', () => {
    const cursors = new CursorStore();
    const first = cursors.open('db.c', docs.slice(0, 5), { batchSize: 2, project: (doc) => ({ n: doc._id }) });
    expect(first.documents).toEqual([{ n: 0 }, { n: 1 }]);
    const second = cursors.getMore(first.id.toBigInt(), 'db.c', 2);
    expect(second.documents).toEqual([{ n: 2 }, { n: 3 }]);
    expect(second.id).toEqual(first.id);
    const last = cursors.getMore(first.id.toBigInt(), 'db.c', 2);
    expect([last.documents, last.id.isZero()]).toEqual([[{ n: 4 }], true]);
  });

  it('returns id 0 when everything fits, or for singleBatch', () => {
    const cursors = new CursorStore();
    expect(cursors.open('db.c', docs.slice(0, 3)).id.isZero()).toBe(true);
    const single = cursors.open('db.c', docs, { singleBatch: true, batchSize: 10 });
    expect([single.documents.length, single.id.isZero(), cursors.openCount]).toEqual([10, true, 0]);
  });

  it('keeps a cursor open with an empty first batch for batchSize 0', () => {
    const cursors = new CursorStore();
    const first = cursors.open('db.c', docs.slice(0, 3), { batchSize: 0 });
    expect([first.documents.length, first.id.isZero()]).toEqual([0, false]);
  });

  it('answers 43 CursorNotFound for unknown and killed ids, and refuses another namespace', () => {
    const cursors = new CursorStore();
    const first = cursors.open('db.c', docs);
    expect(() => cursors.getMore(first.id.toBigInt(), 'db.other', undefined)).toThrow("cursor belongs to a different namespace db.c");
    expect(cursors.kill(first.id.toBigInt())).toBe(true);
    expect(cursors.kill(first.id.toBigInt())).toBe(false);
    let error: unknown;
    try {
      cursors.getMore(first.id.toBigInt(), 'db.c', undefined);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(CommandError);
    expect([(error as CommandError).code, (error as CommandError).codeName]).toEqual([43, 'CursorNotFound']);
  });

  it('answers a getMore only in the session that opened the cursor, as MongoDB does', () => {
    const cursors = new CursorStore();
    const first = cursors.open('db.c', docs, { batchSize: 1, session: 'aa' });
    const codeOf = (run: () => unknown): number | undefined => {
      try {
        run();
        return undefined;
      } catch (error) {
        return (error as CommandError).code;
      }
    };
    expect(codeOf(() => cursors.getMore(first.id.toBigInt(), 'db.c', 1))).toBe(50737);
    expect(codeOf(() => cursors.getMore(first.id.toBigInt(), 'db.c', 1, 'bb'))).toBe(50738);
    expect(cursors.getMore(first.id.toBigInt(), 'db.c', 1, 'aa').documents).toEqual([docs[1]]);
    const outside = cursors.open('db.c', docs, { batchSize: 1 });
    expect(codeOf(() => cursors.getMore(outside.id.toBigInt(), 'db.c', 1, 'aa'))).toBe(50736);
    expect(cursors.getMore(outside.id.toBigInt(), 'db.c', 1).documents).toEqual([docs[1]]);
  });

  it('stops a batch before 16 MiB of the bytes it sends, and always takes the first document', () => {
    const megabyte = 'x'.repeat(1024 * 1024);
    const large = Array.from({ length: 20 }, (_, i) => ({ _id: i, text: megabyte }));
    const cursors = new CursorStore();
    const first = cursors.open('db.c', large, { batchSize: 1 });
    // each document is 1 MiB and 25 bytes: 15 of them fit in 16 MiB, a 16th would not
    const rest = cursors.getMore(first.id.toBigInt(), 'db.c', undefined);
    expect(rest.documents.map((doc) => doc._id)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
    // measured one document at a time, and sent as those bytes
    const reply = { cursor: { id: rest.id, ns: rest.ns, nextBatch: rest.documents }, ok: 1 };
    expect(Buffer.from(encodeBsonDocument(reply)).equals(Buffer.from(serialize(reply)))).toBe(true);
    const last = cursors.getMore(first.id.toBigInt(), 'db.c', undefined);
    expect([last.documents.map((doc) => doc._id), last.id.isZero()]).toEqual([[16, 17, 18, 19], true]);
  });

  it('takes a first document over 16 MiB alone, and refuses one past MongoDB\'s largest result (BSONObjectTooLarge, 10334)', () => {
    const cursors = new CursorStore();
    const big = { _id: 1, text: 'y'.repeat(16 * 1024 * 1024) };
    const alone = cursors.open('db.c', [big, { _id: 2 }]);
    expect([alone.documents.map((doc) => doc._id), alone.id.isZero()]).toEqual([[1], false]);
    let error: unknown;
    try {
      cursors.open('db.c', [{ _id: 3, text: 'z'.repeat(16 * 1024 * 1024 + 16 * 1024) }]);
    } catch (caught) {
      error = caught;
    }
    expect([(error as CommandError).code, (error as CommandError).codeName]).toEqual([10334, 'BSONObjectTooLarge']);
  });

  it('projects a batch lazily past a projection that fails: the documents before it are sent, the failure comes with its own batch', () => {
    const cursors = new CursorStore();
    const project = (doc: { _id?: unknown }) => {
      if (doc._id === 3) throw new CommandError(2, 'BadValue', 'cannot project document 3');
      return { n: doc._id };
    };
    const first = cursors.open('db.c', docs.slice(0, 5), { batchSize: 2, project });
    expect(first.documents).toEqual([{ n: 0 }, { n: 1 }]);
    expect(() => cursors.getMore(first.id.toBigInt(), 'db.c', 2)).toThrow('cannot project document 3');
  });
});
