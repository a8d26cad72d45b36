import { Binary, Decimal128, Double, Int32, Long, ObjectId, serialize, type Document } from 'bson';
import { decodeMessage, type OpMsgMessage, type WireMessage } from '../../../../src/embedded-mongo/wire/message-decoder';
import { encodeOpMsg, encodeOpQuery, encodeOpReply } from '../../../../src/embedded-mongo/wire/message-encoder';
import { OpCode } from '../../../../src/embedded-mongo/protocol/wire-constants';
import { WireProtocolError } from '../../../../src/embedded-mongo/wire/wire-protocol-error';

function asOpMsg(message: WireMessage): OpMsgMessage {
  if (message.opCode !== OpCode.Msg) throw new Error(`expected OP_MSG, got ${message.opCode}`);
  return message;
}

/** An OP_MSG assembled by hand, so the decoder is not only tested against our own encoder. */
function handMadeOpMsg(flags: number, sections: Buffer[], trailer = Buffer.alloc(0)): Buffer {
  const flagBytes = Buffer.alloc(4);
  flagBytes.writeUInt32LE(flags >>> 0, 0);
  const payload = Buffer.concat([flagBytes, ...sections, trailer]);
  const header = Buffer.alloc(16);
  header.writeInt32LE(16 + payload.length, 0);
  header.writeInt32LE(42, 4);
  header.writeInt32LE(0, 8);
  header.writeInt32LE(2013, 12);
  return Buffer.concat([header, payload]);
}

const bodySection = (document: Document): Buffer => Buffer.concat([Buffer.from([0]), Buffer.from(serialize(document))]);

describe('OP_MSG', () => {
  it('round-trips a body with header fields and flags', () => {
    const bytes = encodeOpMsg({ requestId: 7, responseTo: 3, body: { ping: 1, $db: 'admin' }, exhaustAllowed: true });
    expect(bytes.readInt32LE(0)).toBe(bytes.length);
    expect(bytes.readInt32LE(12)).toBe(2013);
    expect(bytes.readUInt32LE(16)).toBe(1 << 16);
    expect(decodeMessage(bytes)).toEqual({
      opCode: OpCode.Msg,
      requestId: 7,
      responseTo: 3,
      moreToCome: false,
      exhaustAllowed: true,
      command: { ping: 1, $db: 'admin' },
    });
  });

  it('sets and reads moreToCome (flag bit 1)', () => {
    const bytes = encodeOpMsg({ requestId: 1, responseTo: 0, body: { endSessions: [], $db: 'admin' }, moreToCome: true });
    expect(bytes.readUInt32LE(16)).toBe(2);
    const message = asOpMsg(decodeMessage(bytes));
    expect(message.moreToCome).toBe(true);
    expect(message.exhaustAllowed).toBe(false);
  });

  it('merges each kind-1 document sequence into the command as an array under its identifier', () => {
    const bytes = encodeOpMsg({
      requestId: 1,
      responseTo: 0,
      body: { update: 'people', $db: 'test' },
      sequences: [
        { identifier: 'updates', documents: [{ q: { a: 1 }, u: { $set: { b: 2 } } }, { q: {}, u: {} }] },
        { identifier: 'extra', documents: [] },
      ],
    });
    expect(asOpMsg(decodeMessage(bytes)).command).toEqual({
      update: 'people',
      $db: 'test',
      updates: [{ q: { a: 1 }, u: { $set: { b: 2 } } }, { q: {}, u: {} }],
      extra: [],
    });
  });

  it('accepts a sequence section before the body section', () => {
    const doc = Buffer.from(serialize({ _id: 1 }));
    const identifier = Buffer.from('documents\0');
    const size = Buffer.alloc(4);
    size.writeInt32LE(4 + identifier.length + doc.length, 0);
    const bytes = handMadeOpMsg(0, [Buffer.from([1]), size, identifier, doc, bodySection({ insert: 'c', $db: 'd' })]);
    expect(asOpMsg(decodeMessage(bytes)).command).toEqual({ insert: 'c', $db: 'd', documents: [{ _id: 1 }] });
  });

  it('verifies and skips a CRC-32C trailer when checksumPresent is set', () => {
    const bytes = encodeOpMsg({ requestId: 9, responseTo: 0, body: { ping: 1, $db: 'admin' }, checksum: true });
    expect(bytes.readUInt32LE(16)).toBe(1);
    expect(asOpMsg(decodeMessage(bytes)).command).toEqual({ ping: 1, $db: 'admin' });

    const corrupted = Buffer.from(bytes);
    corrupted[corrupted.length - 1] ^= 0xff;
    expect(() => decodeMessage(corrupted)).toThrow('OP_MSG checksum mismatch');
  });

  it('keeps BSON types: Long stays Long, Int32 and fractional Double become numbers, Decimal128/ObjectId/Binary/Date keep their classes', () => {
    const id = new ObjectId();
    const when = new Date('2024-01-02T03:04:05.678Z');
    const bytes = encodeOpMsg({
      requestId: 1,
      responseTo: 0,
      body: {
        insert: 'c',
        $db: 'd',
        small: Long.fromNumber(5),
        big: Long.fromString('9007199254740993'),
        int: new Int32(7),
        double: new Double(2.5),
        decimal: Decimal128.fromString('1.10'),
        id,
        when,
        bin: new Binary(Buffer.from([1, 2, 3]), 4),
        nothing: null,
      },
    });
    const command = asOpMsg(decodeMessage(bytes)).command;
    expect(command.small).toBeInstanceOf(Long);
    expect(command.small.toString()).toBe('5');
    expect(command.big.toString()).toBe('9007199254740993');
    expect(command.int).toBe(7);
    expect(command.double).toBe(2.5);
    expect(command.decimal).toBeInstanceOf(Decimal128);
    expect(command.decimal.toString()).toBe('1.10');
    expect(command.id).toBeInstanceOf(ObjectId);
    expect(command.id.equals(id)).toBe(true);
    expect(command.when).toEqual(when);
    expect(command.bin).toBeInstanceOf(Binary);
    expect(command.bin.sub_type).toBe(4);
    expect(command.nothing).toBeNull();

    // And back out: the Long is written as Int64 (type 0x12), the numbers as Int32 (0x10) and Double (0x01).
    const reply = encodeOpMsg({ requestId: 2, responseTo: 1, body: { small: command.small, int: command.int, double: command.double } });
    const bodyBytes = reply.subarray(21);
    expect(bodyBytes[4]).toBe(0x12);
    expect(bodyBytes.indexOf(Buffer.from([0x10, ...Buffer.from('int'), 0]))).toBeGreaterThan(0);
    expect(bodyBytes.indexOf(Buffer.from([0x01, ...Buffer.from('double'), 0]))).toBeGreaterThan(0);
  });

  it.each([
    ['an unknown required flag bit', handMadeOpMsg(1 << 4, [bodySection({ ping: 1 })]), 'unknown required flag bits 16'],
    ['an unknown section kind', handMadeOpMsg(0, [Buffer.from([2]), Buffer.from(serialize({ a: 1 }))]), 'unknown section kind 2'],
    ['no body section', handMadeOpMsg(0, []), 'no body section'],
    ['two body sections', handMadeOpMsg(0, [bodySection({ a: 1 }), bodySection({ b: 1 })]), 'more than one body section'],
    ['a document size past the end', handMadeOpMsg(0, [Buffer.from([0, 200, 0, 0, 0, 0])]), 'BSON document has a bad size 200'],
    ['invalid BSON inside a well-sized document', handMadeOpMsg(0, [Buffer.from([0, 8, 0, 0, 0, 0x30, 0x61, 0, 0])]), 'invalid BSON'],
  ])('rejects %s', (_label, bytes, message) => {
    expect(() => decodeMessage(bytes)).toThrow(WireProtocolError);
    expect(() => decodeMessage(bytes)).toThrow(message);
  });

  it('rejects a field that is both in the body and a document sequence', () => {
    const bytes = encodeOpMsg({
      requestId: 1,
      responseTo: 0,
      body: { insert: 'c', documents: [], $db: 'd' },
      sequences: [{ identifier: 'documents', documents: [{ a: 1 }] }],
    });
    expect(() => decodeMessage(bytes)).toThrow("field 'documents' is both in the body and a document sequence");
  });

  it('ignores the exhaustAllowed bit (16) as an optional flag and rejects other low bits', () => {
    expect(asOpMsg(decodeMessage(handMadeOpMsg(1 << 16, [bodySection({ a: 1 })]))).exhaustAllowed).toBe(true);
    expect(asOpMsg(decodeMessage(handMadeOpMsg(1 << 20, [bodySection({ a: 1 })]))).command).toEqual({ a: 1 });
  });
});

describe('OP_QUERY and OP_REPLY', () => {
  it('decodes the legacy handshake and unwraps $query', () => {
    const plain = decodeMessage(encodeOpQuery({ requestId: 5, fullCollectionName: 'admin.$cmd', query: { isMaster: 1, helloOk: true } }));
    expect(plain).toEqual({
      opCode: OpCode.Query,
      requestId: 5,
      responseTo: 0,
      fullCollectionName: 'admin.$cmd',
      command: { isMaster: 1, helloOk: true },
    });
    const wrapped = decodeMessage(
      encodeOpQuery({ requestId: 6, fullCollectionName: 'admin.$cmd', query: { $query: { hello: 1 }, $readPreference: { mode: 'primary' } } }),
    );
    expect(wrapped.opCode === OpCode.Query && wrapped.command).toEqual({ hello: 1 });
  });

  it('round-trips an OP_REPLY', () => {
    const bytes = encodeOpReply({ requestId: 11, responseTo: 5, documents: [{ ismaster: true, ok: 1 }] });
    expect(bytes.readInt32LE(12)).toBe(1);
    expect(bytes.readInt32LE(32)).toBe(1); // numberReturned
    expect(decodeMessage(bytes)).toEqual({ opCode: OpCode.Reply, requestId: 11, responseTo: 5, documents: [{ ismaster: true, ok: 1 }] });
  });
});

describe('message header', () => {
  it('rejects an unknown opcode', () => {
    const bytes = encodeOpMsg({ requestId: 1, responseTo: 0, body: { ping: 1 } });
    bytes.writeInt32LE(2012, 12); // OP_COMPRESSED: never negotiated, so unsupported
    expect(() => decodeMessage(bytes)).toThrow('unsupported opcode 2012');
  });

  it('rejects a length field that disagrees with the message', () => {
    const bytes = encodeOpMsg({ requestId: 1, responseTo: 0, body: { ping: 1 } });
    bytes.writeInt32LE(bytes.length + 1, 0);
    expect(() => decodeMessage(bytes)).toThrow('message length does not match its header');
  });
});
