/** Opcodes this server reads or writes (https://www.mongodb.com/docs/manual/reference/mongodb-wire-protocol/). */
export const OpCode = {
  Reply: 1,
  Query: 2004,
  Msg: 2013,
} as const;
export type OpCode = (typeof OpCode)[keyof typeof OpCode];

/** OP_MSG flag bits. Bits 0-15 are "required": a reader must reject bits it does not know. */
export const OpMsgFlag = {
  ChecksumPresent: 1 << 0,
  MoreToCome: 1 << 1,
  ExhaustAllowed: 1 << 16,
} as const;

/** Every message starts with messageLength, requestID, responseTo and opCode (int32 each). */
export const HEADER_SIZE = 16;

/** MongoDB's limits, advertised in hello and enforced on every incoming message. */
export const MAX_BSON_OBJECT_SIZE = 16 * 1024 * 1024;
export const MAX_MESSAGE_SIZE_BYTES = 48_000_000;
export const MAX_WRITE_BATCH_SIZE = 100_000;
