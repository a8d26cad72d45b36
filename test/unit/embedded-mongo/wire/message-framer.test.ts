import { MessageFramer } from '../../../../src/embedded-mongo/wire/message-framer';
import { WireProtocolError } from '../../../../src/embedded-mongo/wire/wire-protocol-error';

/** A fake message: a valid length prefix followed by `fill` bytes. */
function message(length: number, fill: number): Buffer {
  const bytes = Buffer.alloc(length, fill);
  bytes.writeInt32LE(length, 0);
  return bytes;
}

describe('MessageFramer', () => {
  it('returns a message that arrives in one chunk', () => {
    const framer = new MessageFramer();
    const one = message(20, 7);
    expect(framer.push(one)).toEqual([one]);
    expect(framer.pendingBytes).toBe(0);
  });

  it('reassembles a message split into single bytes, including a split length prefix', () => {
    const framer = new MessageFramer();
    const one = message(40, 3);
    const results: Buffer[] = [];
    for (let i = 0; i < one.length; i++) {
      const out = framer.push(one.subarray(i, i + 1));
      if (i < one.length - 1) expect(out).toEqual([]);
      results.push(...out);
    }
    expect(results).toEqual([one]);
    expect(framer.pendingBytes).toBe(0);
  });

  it('splits coalesced messages and keeps the tail of a partial one', () => {
    const framer = new MessageFramer();
    const a = message(16, 1);
    const b = message(30, 2);
    const c = message(25, 3);
    const all = Buffer.concat([a, b, c]);
    expect(framer.push(all.subarray(0, 50))).toEqual([a, b]);
    expect(framer.pendingBytes).toBe(4);
    expect(framer.push(all.subarray(50, 60))).toEqual([]);
    expect(framer.push(all.subarray(60))).toEqual([c]);
    expect(framer.pendingBytes).toBe(0);
  });

  it('handles a message that spans three chunks and ends mid-chunk', () => {
    const framer = new MessageFramer();
    const a = message(100, 9);
    const b = message(18, 8);
    const all = Buffer.concat([a, b]);
    expect(framer.push(all.subarray(0, 2))).toEqual([]);
    expect(framer.push(all.subarray(2, 60))).toEqual([]);
    expect(framer.push(all.subarray(60, 105))).toEqual([a]);
    expect(framer.push(all.subarray(105))).toEqual([b]);
  });

  it('rejects a length prefix shorter than a header', () => {
    const short = Buffer.alloc(16);
    short.writeInt32LE(15, 0);
    expect(() => new MessageFramer().push(short)).toThrow('message length 15 is shorter than a header');
    const negative = Buffer.alloc(16);
    negative.writeInt32LE(-5, 0);
    expect(() => new MessageFramer().push(negative)).toThrow('message length -5 is shorter than a header');
  });

  it('rejects a length prefix above the maximum before the body arrives', () => {
    const prefix = Buffer.alloc(4);
    prefix.writeInt32LE(48_000_001, 0);
    expect(() => new MessageFramer().push(prefix)).toThrow('message length 48000001 exceeds maxMessageSizeBytes 48000000');
    const small = Buffer.alloc(4);
    small.writeInt32LE(65, 0);
    expect(() => new MessageFramer(64).push(small)).toThrow(WireProtocolError);
    expect(new MessageFramer(65).push(small)).toEqual([]);
  });
});
