import { Long } from 'bson';
import { decodeEntries, encodeFrame, scanFrames } from '../../../../src/embedded-mongo/persistence/record-frame';

describe('record frames', () => {
  const first = encodeFrame([{ op: 'a' }, { put: { _id: 1, big: Long.fromString('9007199254740993') } }]);
  const second = encodeFrame([{ op: 'b' }]);

  it('reads back every entry of every frame, with BSON types intact', () => {
    const { payloads, trailingBytes } = scanFrames(Buffer.concat([first, second]));
    expect(trailingBytes).toBe(0);
    expect(payloads.map(decodeEntries)).toEqual([[{ op: 'a' }, { put: { _id: 1, big: Long.fromString('9007199254740993') } }], [{ op: 'b' }]]);
  });

  it('stops at a frame cut off anywhere, and reports its bytes', () => {
    for (let cut = 1; cut < second.length; cut++) {
      const { payloads, trailingBytes } = scanFrames(Buffer.concat([first, second.subarray(0, cut)]));
      expect(payloads).toHaveLength(1);
      expect(trailingBytes).toBe(cut);
    }
  });

  it('stops at a frame whose checksum fails, and at a zero-filled tail', () => {
    const damaged = Buffer.from(second);
    damaged[damaged.length - 2] ^= 0xff;
    expect(scanFrames(Buffer.concat([first, damaged, first]))).toMatchObject({ payloads: [expect.any(Buffer)], trailingBytes: damaged.length + first.length });
    expect(scanFrames(Buffer.concat([first, Buffer.alloc(64)]))).toMatchObject({ payloads: [expect.any(Buffer)], trailingBytes: 64 });
  });

  it('refuses a checksummed payload that is not whole BSON documents', () => {
    expect(() => decodeEntries(Buffer.from([6, 0, 0, 0, 0]))).toThrow('malformed BSON document at payload byte 0');
  });
});
