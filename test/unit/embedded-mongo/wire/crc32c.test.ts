import { crc32c } from '../../../../src/embedded-mongo/wire/crc32c';

describe('crc32c', () => {
  it('matches the published CRC-32C check values', () => {
    // RFC 3720 (iSCSI) appendix B.4 and the standard "123456789" check value.
    expect(crc32c(Buffer.from('123456789', 'ascii'))).toBe(0xe3069283);
    expect(crc32c(Buffer.alloc(32, 0))).toBe(0x8a9136aa);
    expect(crc32c(Buffer.alloc(32, 0xff))).toBe(0x62a8ab43);
    expect(crc32c(Buffer.alloc(0))).toBe(0);
  });
});
