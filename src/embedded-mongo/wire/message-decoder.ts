import type { Document } from 'bson';
import { decodeBsonDocument } from './bson-document';
import { crc32c } from './crc32c';
import { HEADER_SIZE, OpCode, OpMsgFlag } from '../protocol/wire-constants';
import { WireProtocolError } from './wire-protocol-error';

export interface OpMsgMessage {
  readonly opCode: typeof OpCode.Msg;
  readonly requestId: number;
  readonly responseTo: number;
  /** The sender wants no reply (or, in a reply, more replies follow). */
  readonly moreToCome: boolean;
  /** The client accepts a stream of replies (used by the driver's awaitable hello). */
  readonly exhaustAllowed: boolean;
  /** The kind-0 body with each kind-1 document sequence merged in as an array under its identifier. */
  readonly command: Document;
}

export interface OpQueryMessage {
  readonly opCode: typeof OpCode.Query;
  readonly requestId: number;
  readonly responseTo: number;
  /** `<db>.$cmd` for a command. */
  readonly fullCollectionName: string;
  /** The query document with any `$query` wrapper removed. */
  readonly command: Document;
}

/** Only clients read these; the server treats an incoming OP_REPLY as malformed. */
export interface OpReplyMessage {
  readonly opCode: typeof OpCode.Reply;
  readonly requestId: number;
  readonly responseTo: number;
  readonly documents: Document[];
}

export type WireMessage = OpMsgMessage | OpQueryMessage | OpReplyMessage;

const KNOWN_FLAGS = OpMsgFlag.ChecksumPresent | OpMsgFlag.MoreToCome | OpMsgFlag.ExhaustAllowed;
const REQUIRED_FLAG_BITS = 0xffff;

/** Decodes one whole message (as cut by `MessageFramer`). Throws `WireProtocolError` when it is malformed. */
export function decodeMessage(message: Buffer): WireMessage {
  if (message.length < HEADER_SIZE || message.readInt32LE(0) !== message.length) {
    throw new WireProtocolError('message length does not match its header');
  }
  const header = { requestId: message.readInt32LE(4), responseTo: message.readInt32LE(8) };
  const opCode = message.readInt32LE(12);
  switch (opCode) {
    case OpCode.Msg:
      return decodeOpMsg(message, header);
    case OpCode.Query:
      return decodeOpQuery(message, header);
    case OpCode.Reply:
      return decodeOpReply(message, header);
    default:
      throw new WireProtocolError(`unsupported opcode ${opCode}`);
  }
}

interface Header {
  readonly requestId: number;
  readonly responseTo: number;
}

function decodeOpMsg(message: Buffer, header: Header): OpMsgMessage {
  if (message.length < HEADER_SIZE + 4) throw new WireProtocolError('OP_MSG is too short for its flag bits');
  const flags = message.readUInt32LE(HEADER_SIZE);
  const unknownRequired = flags & REQUIRED_FLAG_BITS & ~KNOWN_FLAGS;
  if (unknownRequired !== 0) throw new WireProtocolError(`OP_MSG has unknown required flag bits ${unknownRequired}`);

  let end = message.length;
  if (flags & OpMsgFlag.ChecksumPresent) {
    end -= 4;
    if (end < HEADER_SIZE + 4) throw new WireProtocolError('OP_MSG is too short for its checksum');
    const expected = message.readUInt32LE(end);
    if (crc32c(message.subarray(0, end)) !== expected) throw new WireProtocolError('OP_MSG checksum mismatch');
  }

  let body: Document | undefined;
  const sequences: Array<[string, Document[]]> = [];
  let offset = HEADER_SIZE + 4;
  while (offset < end) {
    const kind = message[offset]!;
    offset += 1;
    if (kind === 0) {
      if (body !== undefined) throw new WireProtocolError('OP_MSG has more than one body section');
      const size = readDocumentSize(message, offset, end);
      body = readDocument(message, offset, size);
      offset += size;
    } else if (kind === 1) {
      if (offset + 4 > end) throw new WireProtocolError('OP_MSG document sequence is truncated');
      const sectionEnd = offset + message.readInt32LE(offset);
      if (sectionEnd <= offset + 4 || sectionEnd > end) throw new WireProtocolError('OP_MSG document sequence has a bad size');
      const [identifier, afterIdentifier] = readCString(message, offset + 4, sectionEnd);
      const documents: Document[] = [];
      let cursor = afterIdentifier;
      while (cursor < sectionEnd) {
        const size = readDocumentSize(message, cursor, sectionEnd);
        documents.push(readDocument(message, cursor, size));
        cursor += size;
      }
      sequences.push([identifier, documents]);
      offset = sectionEnd;
    } else {
      throw new WireProtocolError(`OP_MSG has unknown section kind ${kind}`);
    }
  }
  if (body === undefined) throw new WireProtocolError('OP_MSG has no body section');
  for (const [identifier, documents] of sequences) {
    if (Object.prototype.hasOwnProperty.call(body, identifier)) {
      throw new WireProtocolError(`OP_MSG field '${identifier}' is both in the body and a document sequence`);
    }
    body[identifier] = documents;
  }
  return {
    opCode: OpCode.Msg,
    ...header,
    moreToCome: (flags & OpMsgFlag.MoreToCome) !== 0,
    exhaustAllowed: (flags & OpMsgFlag.ExhaustAllowed) !== 0,
    command: body,
  };
}

function decodeOpQuery(message: Buffer, header: Header): OpQueryMessage {
  const end = message.length;
  const [fullCollectionName, afterName] = readCString(message, HEADER_SIZE + 4, end);
  const queryOffset = afterName + 8; // numberToSkip, numberToReturn: commands ignore both
  const size = readDocumentSize(message, queryOffset, end);
  const query = readDocument(message, queryOffset, size);
  // An optional returnFieldsSelector may follow; commands have no use for it, but it must be valid.
  const selectorOffset = queryOffset + size;
  if (selectorOffset < end) {
    const selectorSize = readDocumentSize(message, selectorOffset, end);
    if (selectorOffset + selectorSize !== end) throw new WireProtocolError('OP_QUERY has trailing bytes');
    readDocument(message, selectorOffset, selectorSize);
  }
  const wrapped = query.$query;
  const command = wrapped !== null && typeof wrapped === 'object' && !Array.isArray(wrapped) ? (wrapped as Document) : query;
  return { opCode: OpCode.Query, ...header, fullCollectionName, command };
}

function decodeOpReply(message: Buffer, header: Header): OpReplyMessage {
  const end = message.length;
  const fixedEnd = HEADER_SIZE + 20; // responseFlags, cursorID, startingFrom, numberReturned
  if (end < fixedEnd) throw new WireProtocolError('OP_REPLY is too short');
  const numberReturned = message.readInt32LE(HEADER_SIZE + 16);
  const documents: Document[] = [];
  let offset = fixedEnd;
  while (offset < end) {
    const size = readDocumentSize(message, offset, end);
    documents.push(readDocument(message, offset, size));
    offset += size;
  }
  if (documents.length !== numberReturned) throw new WireProtocolError('OP_REPLY numberReturned does not match its documents');
  return { opCode: OpCode.Reply, ...header, documents };
}

function readDocumentSize(message: Buffer, offset: number, end: number): number {
  if (offset + 4 > end) throw new WireProtocolError('BSON document is truncated');
  const size = message.readInt32LE(offset);
  if (size < 5 || offset + size > end) throw new WireProtocolError(`BSON document has a bad size ${size}`);
  return size;
}

function readDocument(message: Buffer, offset: number, size: number): Document {
  try {
    return decodeBsonDocument(message.subarray(offset, offset + size));
  } catch (error) {
    throw new WireProtocolError(`invalid BSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function readCString(message: Buffer, offset: number, end: number): [string, number] {
  const terminator = message.indexOf(0, offset);
  if (terminator < 0 || terminator >= end) throw new WireProtocolError('unterminated C string');
  return [message.toString('utf8', offset, terminator), terminator + 1];
}
