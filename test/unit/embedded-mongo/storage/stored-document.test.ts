import { Binary, BSON, ObjectId } from 'bson';
import { storableDocument, ValueInterner } from '../../../../src/embedded-mongo/storage/stored-document';

describe('storableDocument', () => {
  it('copies and deep-freezes the document with _id first, generating an ObjectId when missing', () => {
    const source = { name: 'n', sub: { list: [1, { x: 2 }] }, when: new Date(5), bytes: new Binary(Buffer.from('ab')) };
    const stored = storableDocument(source);
    expect(Object.keys(stored)).toEqual(['_id', 'name', 'sub', 'when', 'bytes']);
    expect(stored._id).toBeInstanceOf(ObjectId);
    expect(stored).toEqual({ _id: stored._id, ...source });
    expect(Object.isFrozen(stored) && Object.isFrozen(stored.sub) && Object.isFrozen(stored.sub.list) && Object.isFrozen(stored.sub.list[1])).toBe(true);
    expect(stored.when).not.toBe(source.when);
    expect(stored.bytes).not.toBe(source.bytes);
    source.sub.list.push(3);
    expect(stored.sub.list).toEqual([1, { x: 2 }]);
  });

  it('shares repeated strings and ObjectIds between the documents of one command, never the _id', () => {
    const host = new ObjectId();
    const interner = new ValueInterner();
    const [a, b] = [1, 2].map((n) =>
      storableDocument({ _id: new ObjectId(host.toHexString()), n, host: { id: new ObjectId(host.toHexString()), name: `host-${'x'.repeat(3)}` } }, interner),
    );
    expect(a!.host.id).toBe(b!.host.id);
    expect(a!.host.id).toEqual(host);
    expect(a!._id).not.toBe(a!.host.id);
    expect(a!.host.name).toBe('host-xxx');
    expect(storableDocument({ _id: 1, host: { id: host } }).host.id).toBe(host);
  });

  it('keeps a "__proto__" field as data and rejects array and regex _ids', () => {
    const stored = storableDocument(JSON.parse('{"_id": 1, "__proto__": {"polluted": true}}'));
    expect(Object.getPrototypeOf(stored)).toBe(Object.prototype);
    expect(Object.keys(stored)).toEqual(['_id', '__proto__']);
    expect(() => storableDocument({ _id: [1] })).toThrow(/array/);
    expect(() => storableDocument({ _id: /x/ })).toThrow(/regex/);
  });

  it("refuses a date past JavaScript's range, which it could only store as another date (1970)", () => {
    const raw = Buffer.from(BSON.serialize({ _id: 1, nested: [{ at: new Date(0) }] }));
    raw.writeBigInt64LE(2n ** 62n, raw.indexOf(Buffer.from('at\0')) + 3);
    const decoded = BSON.deserialize(raw);
    expect(() => storableDocument(decoded)).toThrow("the embedded server cannot store a date outside JavaScript's range (years -271821 to 275760); MongoDB can");
    expect(() => storableDocument({ _id: new Date(Number.NaN) })).toThrow(/outside JavaScript's range/);
    expect(storableDocument({ _id: 2, at: new Date(8.64e15) }).at).toEqual(new Date(8.64e15));
  });
});
