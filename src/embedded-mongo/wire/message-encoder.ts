import type { Document } from 'bson';
import { encodeBsonDocument } from './bson-document';
import { crc32c } from './crc32c';
import { HEADER_SIZE, OpCode, OpMsgFlag } from '../protocol/wire-constants';

/**
 * Builds whole messages. The server writes OP_MSG and OP_REPLY; OP_QUERY and the request side of
 * OP_MSG (sequences, checksum) exist so tests and tools can speak to the server over a raw socket.
 */
export interface OpMsgParts {
  readonly requestId: number;
  readonly responseTo: number;
  readonly body: Document;
  /** Kind-1 sections, in order. */
  readonly sequences?: ReadonlyArray<{ readonly identifier: string; readonly documents: readonly Document[] }>;
  readonly moreToCome?: boolean;
  readonly exhaustAllowed?: boolean;
  /** Append a CRC-32C trailer and set `checksumPresent`. */
  readonly checksum?: boolean;
}

export function encodeOpMsg(parts: OpMsgParts): Buffer {
  const flags =
    (parts.moreToCome ? OpMsgFlag.MoreToCome : 0) |
    (parts.exhaustAllowed ? OpMsgFlag.ExhaustAllowed : 0) |
    (parts.checksum ? OpMsgFlag.ChecksumPresent : 0);
  const flagBytes = Buffer.allocUnsafe(4);
  flagBytes.writeUInt32LE(flags >>> 0, 0);
  const pieces: Buffer[] = [flagBytes, Buffer.from([0]), encodeBsonDocument(parts.body)];
  for (const sequence of parts.sequences ?? []) {
    const identifier = Buffer.from(`${sequence.identifier}\0`, 'utf8');
    const documents = sequence.documents.map((document) => encodeBsonDocument(document));
    const size = Buffer.allocUnsafe(4);
    size.writeInt32LE(4 + identifier.length + documents.reduce((sum, document) => sum + document.length, 0), 0);
    pieces.push(Buffer.from([1]), size, identifier, ...documents);
  }
  const message = frame(OpCode.Msg, parts.requestId, parts.responseTo, pieces, parts.checksum ? 4 : 0);
  if (parts.checksum) message.writeUInt32LE(crc32c(message.subarray(0, message.length - 4)), message.length - 4);
  return message;
}

/** OP_REPLY: the answer to an OP_QUERY command (responseFlags 0, cursorID 0, startingFrom 0). */
export function encodeOpReply(parts: { requestId: number; responseTo: number; documents: readonly Document[] }): Buffer {
  const fixed = Buffer.alloc(20);
  fixed.writeInt32LE(parts.documents.length, 16);
  const documents = parts.documents.map((document) => encodeBsonDocument(document));
  return frame(OpCode.Reply, parts.requestId, parts.responseTo, [fixed, ...documents], 0);
}

/** OP_QUERY, as the driver sends its first hello before it knows the server's wire version. */
export function encodeOpQuery(parts: {
  requestId: number;
  fullCollectionName: string;
  query: Document;
  numberToReturn?: number;
}): Buffer {
  const flags = Buffer.alloc(4);
  const name = Buffer.from(`${parts.fullCollectionName}\0`, 'utf8');
  const counts = Buffer.alloc(8);
  counts.writeInt32LE(parts.numberToReturn ?? -1, 4);
  const query = encodeBsonDocument(parts.query);
  return frame(OpCode.Query, parts.requestId, 0, [flags, name, counts, query], 0);
}

function frame(opCode: OpCode, requestId: number, responseTo: number, pieces: readonly Buffer[], trailer: number): Buffer {
  const length = HEADER_SIZE + pieces.reduce((sum, piece) => sum + piece.length, 0) + trailer;
  const message = Buffer.allocUnsafe(length);
  message.writeInt32LE(length, 0);
  message.writeInt32LE(requestId, 4);
  message.writeInt32LE(responseTo, 8);
  message.writeInt32LE(opCode, 12);
  let offset = HEADER_SIZE;
  for (const piece of pieces) offset += piece.copy(message, offset);
  return message;
}
