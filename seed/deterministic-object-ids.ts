import { ObjectId } from 'bson';
import type { DemoCollectionName } from './demo-documents';

/**
 * ObjectIds that are the same on every run: 4 bytes of a fixed timestamp, 1 byte naming the
 * collection, then a 7-byte counter. Stable ids let tests, docs and bookmarks name demo documents.
 */
export const DEMO_ID_TIMESTAMP_SECONDS = 1_767_225_600; // 2026-01-01T00:00:00Z

const MAX_COUNTER = 2 ** 56;

export function createIdSequence(collectionTag: number): () => ObjectId {
  if (!Number.isInteger(collectionTag) || collectionTag < 0 || collectionTag > 0xff) {
    throw new Error(`createIdSequence: collectionTag must be a byte, got ${collectionTag}`);
  }
  const bytes = new Uint8Array(12);
  const view = new DataView(bytes.buffer);
  view.setUint32(0, DEMO_ID_TIMESTAMP_SECONDS);
  bytes[4] = collectionTag;
  let counter = 0;
  return () => {
    counter += 1;
    if (counter >= MAX_COUNTER) throw new Error(`createIdSequence: tag ${collectionTag} ran out of ids`);
    // The 7-byte counter: its high 3 bytes, then its low 4 (plain arithmetic, no Math calls: this runs 100k+ times).
    const high = (counter / 0x1_0000_0000) | 0;
    bytes[5] = high >>> 16;
    bytes[6] = (high >>> 8) & 0xff;
    bytes[7] = high & 0xff;
    view.setUint32(8, counter >>> 0);
    return new ObjectId(bytes); // copies the bytes, so the buffer can be reused
  };
}

/** The tag byte (byte 5) of each demo collection's ids: the collection can be read off any demo id. */
export const DEMO_ID_TAGS: Readonly<Record<DemoCollectionName, number>> = {
  people: 0x01,
  stocks: 0x02,
  tasks: 0x03,
  posts: 0x04,
  comments: 0x05,
  publishers: 0x06,
  books: 0x07,
  authors: 0x08,
  products: 0x09,
  parts: 0x0a,
  hosts: 0x0b,
  logMessages: 0x0c,
};

export function demoIdSequence(collection: DemoCollectionName): () => ObjectId {
  return createIdSequence(DEMO_ID_TAGS[collection]);
}
