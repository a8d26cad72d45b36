import { createIdSequence, DEMO_ID_TAGS } from '../../../seed/deterministic-object-ids';

test('ids are fixed timestamp, tag byte, 7-byte counter', () => {
  const next = createIdSequence(0x0c);
  expect(next().toHexString()).toBe('6955b9000c00000000000001');
  expect(next().toHexString()).toBe('6955b9000c00000000000002');
  expect(next().getTimestamp().toISOString()).toBe('2026-01-01T00:00:00.000Z');
});

test('the counter carries into the high bytes past 2^32', () => {
  const next = createIdSequence(1);
  let id = next();
  for (let i = 1; i < 256; i++) id = next();
  expect(id.toHexString()).toBe('6955b9000100000000000100');
  // Skipping 2^32 calls is too slow, so check the byte split with the arithmetic the sequence uses.
  const counter = 2 ** 32 + 5;
  expect(((counter / 0x1_0000_0000) | 0).toString(16)).toBe('1');
});

test('every sequence restarts at 1 and tags are distinct bytes', () => {
  expect(createIdSequence(2)().toHexString()).toBe(createIdSequence(2)().toHexString());
  expect(new Set(Object.values(DEMO_ID_TAGS)).size).toBe(Object.keys(DEMO_ID_TAGS).length);
  expect(() => createIdSequence(256)).toThrow('createIdSequence: collectionTag must be a byte, got 256');
});
