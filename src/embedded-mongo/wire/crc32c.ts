/** CRC-32C (Castagnoli), the checksum OP_MSG uses when `checksumPresent` is set. Node 20 has none built in. */
const TABLE = buildTable(0x82f63b78);

function buildTable(reversedPolynomial: number): Uint32Array {
  const table = new Uint32Array(256);
  for (let byte = 0; byte < 256; byte++) {
    let crc = byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ reversedPolynomial : crc >>> 1;
    table[byte] = crc >>> 0;
  }
  return table;
}

export function crc32c(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) crc = TABLE[(crc ^ bytes[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}
