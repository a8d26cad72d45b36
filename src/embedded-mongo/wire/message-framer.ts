import { HEADER_SIZE, MAX_MESSAGE_SIZE_BYTES } from '../protocol/wire-constants';
import { WireProtocolError } from './wire-protocol-error';

/**
 * Cuts a TCP byte stream into whole messages. A chunk may hold part of a message, several
 * messages, or both; chunks are kept in a list and copied once a message is complete, so a large
 * message arriving in many chunks costs O(size), not O(size × chunks).
 */
export class MessageFramer {
  private chunks: Buffer[] = [];
  private buffered = 0;

  constructor(private readonly maxMessageSize = MAX_MESSAGE_SIZE_BYTES) {}

  /** Adds bytes and returns every message they complete. Throws `WireProtocolError` on a bad length prefix. */
  push(chunk: Buffer): Buffer[] {
    if (chunk.length > 0) {
      this.chunks.push(chunk);
      this.buffered += chunk.length;
    }
    const messages: Buffer[] = [];
    for (;;) {
      const length = this.peekLength();
      if (length === undefined || this.buffered < length) return messages;
      messages.push(this.take(length));
    }
  }

  /** Bytes received that do not yet form a whole message. */
  get pendingBytes(): number {
    return this.buffered;
  }

  private peekLength(): number | undefined {
    if (this.buffered < 4) return undefined;
    const first = this.chunks[0]!;
    const length = first.length >= 4 ? first.readInt32LE(0) : this.take(4, false).readInt32LE(0);
    if (length < HEADER_SIZE) throw new WireProtocolError(`message length ${length} is shorter than a header`);
    if (length > this.maxMessageSize) {
      throw new WireProtocolError(`message length ${length} exceeds maxMessageSizeBytes ${this.maxMessageSize}`);
    }
    return length;
  }

  /** The first `length` buffered bytes; removed from the buffer when `consume` is true. */
  private take(length: number, consume = true): Buffer {
    const first = this.chunks[0]!;
    if (first.length >= length) {
      if (!consume) return first.subarray(0, length);
      this.buffered -= length;
      if (first.length === length) this.chunks.shift();
      else this.chunks[0] = first.subarray(length);
      return first.subarray(0, length);
    }
    const out = Buffer.allocUnsafe(length);
    let filled = 0;
    let index = 0;
    while (filled < length) {
      const chunk = this.chunks[index]!;
      const part = Math.min(chunk.length, length - filled);
      chunk.copy(out, filled, 0, part);
      filled += part;
      if (consume && part < chunk.length) this.chunks[index] = chunk.subarray(part);
      else index++;
    }
    if (consume) {
      this.chunks.splice(0, index);
      this.buffered -= length;
    }
    return out;
  }
}
