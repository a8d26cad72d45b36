import type { Document } from 'bson';
import { decodeBsonDocument, encodeBsonDocument } from '../wire/bson-document';
import { crc32c } from '../wire/crc32c';

/**
 * How the journal and the snapshot store records: each record is one frame,
 *
 *   [payload length: uint32 LE][CRC-32C of the payload: uint32 LE][payload]
 *
 * and the payload is one or more BSON documents back to back: the record's header, then its
 * documents (one BSON document each, so a record of many documents never needs one document over
 * BSON's 16 MiB). A frame that runs past the end of the file or fails its checksum is where a write
 * was cut off (a kill mid-append, or unsynced blocks after a machine crash): it and anything after
 * it are not records.
 */
const FRAME_HEADER_BYTES = 8;
/** The smallest BSON document (`{}`). */
const MIN_DOCUMENT_BYTES = 5;

export function encodeFrame(entries: readonly Document[]): Buffer {
  const parts = entries.map(encodeBsonDocument);
  let payloadBytes = 0;
  for (const part of parts) payloadBytes += part.length;
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + payloadBytes);
  let offset = FRAME_HEADER_BYTES;
  for (const part of parts) offset += part.copy(frame, offset);
  frame.writeUInt32LE(payloadBytes, 0);
  frame.writeUInt32LE(crc32c(frame.subarray(FRAME_HEADER_BYTES)), 4);
  return frame;
}

export interface ScannedFrames {
  /** The payload of each whole, intact frame, in file order (views into the file's bytes). */
  readonly payloads: readonly Buffer[];
  /** Bytes after the last intact frame: a record cut off mid-write, or 0. */
  readonly trailingBytes: number;
}

/** Finds the intact frames at the start of `bytes`; stops at the first cut-off or damaged one. */
export function scanFrames(bytes: Buffer): ScannedFrames {
  const payloads: Buffer[] = [];
  let offset = 0;
  while (offset + FRAME_HEADER_BYTES <= bytes.length) {
    const length = bytes.readUInt32LE(offset);
    const start = offset + FRAME_HEADER_BYTES;
    // a zero length is what a zero-filled tail would read as (and its checksum would match)
    if (length < MIN_DOCUMENT_BYTES || start + length > bytes.length) break;
    const payload = bytes.subarray(start, start + length);
    if (crc32c(payload) !== bytes.readUInt32LE(offset + 4)) break;
    payloads.push(payload);
    offset = start + length;
  }
  return { payloads, trailingBytes: bytes.length - offset };
}

/** The BSON documents of an intact frame's payload; throws when they do not fill it exactly. */
export function decodeEntries(payload: Buffer): Document[] {
  const entries: Document[] = [];
  let offset = 0;
  while (offset < payload.length) {
    const length = offset + 4 <= payload.length ? payload.readInt32LE(offset) : 0;
    if (length < MIN_DOCUMENT_BYTES || offset + length > payload.length) throw new Error(`malformed BSON document at payload byte ${offset}`);
    entries.push(decodeBsonDocument(payload.subarray(offset, offset + length)));
    offset += length;
  }
  return entries;
}
