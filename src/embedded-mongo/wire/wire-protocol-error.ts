/**
 * The peer sent bytes that are not a valid message (bad length, unknown opcode, bad BSON, ...).
 * The connection that sent them is closed; no reply is possible because the stream is out of sync.
 */
export class WireProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WireProtocolError';
  }
}
