import type { Socket } from 'node:net';
import type { Document } from 'bson';
import { CommandError } from '../protocol/command-error';
import { commandName, runCommand } from '../commands/command-table';
import type { CommandTable } from '../protocol/command-types';
import { awaitableHelloIntervalMs } from './awaitable-hello';
import { errorReply, successReply } from './command-reply';
import { decodeMessage, type OpMsgMessage, type OpQueryMessage } from './message-decoder';
import { encodeOpMsg, encodeOpReply } from './message-encoder';
import { MessageFramer } from './message-framer';
import { OpCode } from '../protocol/wire-constants';
import { WireProtocolError } from './wire-protocol-error';

export interface WireConnectionOptions {
  readonly connectionId: number;
  readonly commands: CommandTable;
  /** Each reply is written this many ms after its command finished. */
  readonly latencyMs: number;
  /** Server-wide source of reply request ids. */
  readonly nextRequestId: () => number;
  readonly maxMessageSize?: number;
  /** Called once when the connection is gone, for whatever reason. */
  readonly onClose: () => void;
  readonly onProtocolError?: (error: WireProtocolError) => void;
}

/** Commands MongoDB 6+ still accepts over OP_QUERY: the handshake only. */
const OP_QUERY_COMMANDS = new Set(['hello', 'isMaster', 'ismaster']);

/**
 * One client socket. Messages are handled one at a time in arrival order, as mongod does per
 * connection, so replies leave in request order even when handlers are async or latency is added.
 */
export class WireConnection {
  private readonly framer: MessageFramer;
  private queue: Promise<void> = Promise.resolve();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly socket: Socket,
    private readonly options: WireConnectionOptions,
  ) {
    this.framer = new MessageFramer(options.maxMessageSize);
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => this.close());
    socket.on('close', () => this.close());
  }

  get remoteAddress(): string {
    return `${this.socket.remoteAddress ?? 'unknown'}:${this.socket.remotePort ?? 0}`;
  }

  /** Drops the connection at once; pending replies are discarded. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.socket.destroy();
    this.options.onClose();
  }

  private receive(chunk: Buffer): void {
    if (this.closed) return;
    let messages: Buffer[];
    try {
      messages = this.framer.push(chunk);
    } catch (error) {
      this.fail(error);
      return;
    }
    for (const message of messages) this.queue = this.queue.then(() => this.handle(message));
  }

  private async handle(bytes: Buffer): Promise<void> {
    if (this.closed) return;
    try {
      const message = decodeMessage(bytes);
      switch (message.opCode) {
        case OpCode.Msg:
          return await this.handleOpMsg(message);
        case OpCode.Query:
          return await this.handleOpQuery(message);
        case OpCode.Reply:
          throw new WireProtocolError('clients may not send OP_REPLY');
        default: {
          const unexpected: never = message;
          throw new WireProtocolError(`unexpected message ${String(unexpected)}`);
        }
      }
    } catch (error) {
      this.fail(error);
    }
  }

  private async handleOpMsg(message: OpMsgMessage): Promise<void> {
    const reply = await this.execute(message.command);
    if (message.moreToCome) return;
    const streamEveryMs = message.exhaustAllowed ? awaitableHelloIntervalMs(message.command) : undefined;
    const requestId = this.sendOpMsg(reply, message.requestId, streamEveryMs !== undefined);
    if (streamEveryMs !== undefined) this.streamReplies(message.command, requestId, streamEveryMs);
  }

  private async handleOpQuery(message: OpQueryMessage): Promise<void> {
    const name = commandName(message.command);
    const db = message.fullCollectionName.endsWith('.$cmd') ? message.fullCollectionName.slice(0, -'.$cmd'.length) : undefined;
    const reply =
      db !== undefined && OP_QUERY_COMMANDS.has(name)
        ? await this.execute({ ...message.command, $db: db })
        : errorReply(
            new CommandError(
              352,
              'UnsupportedOpQueryCommand',
              `Unsupported OP_QUERY command: ${name}. The client driver may require an upgrade.`,
            ),
          );
    const requestId = this.options.nextRequestId();
    this.send(encodeReplySafely(reply, (document) => encodeOpReply({ requestId, responseTo: message.requestId, documents: [document] })));
  }

  /** The reply document for a command; never throws. */
  private async execute(command: Document): Promise<Document> {
    const db = command.$db;
    if (typeof db !== 'string') {
      return errorReply(new CommandError(40571, 'Location40571', 'OP_MSG requests require a $db argument'));
    }
    try {
      return successReply(await runCommand(this.options.commands, command, { db, connectionId: this.options.connectionId }));
    } catch (error) {
      return errorReply(error);
    }
  }

  /** Returns the reply's own request id, which the next reply of an exhaust stream answers. */
  private sendOpMsg(reply: Document, responseTo: number, moreToCome: boolean): number {
    const requestId = this.options.nextRequestId();
    this.send(encodeReplySafely(reply, (body) => encodeOpMsg({ requestId, responseTo, body, moreToCome })));
    return requestId;
  }

  /** Keeps answering an awaitable hello every `intervalMs` until the connection closes. */
  private streamReplies(command: Document, previousRequestId: number, intervalMs: number): void {
    this.schedule(intervalMs, () => {
      this.queue = this.queue.then(async () => {
        if (this.closed) return;
        const requestId = this.sendOpMsg(await this.execute(command), previousRequestId, true);
        this.streamReplies(command, requestId, intervalMs);
      });
    });
  }

  private send(message: Buffer): void {
    if (this.options.latencyMs > 0) this.schedule(this.options.latencyMs, () => this.write(message));
    else this.write(message);
  }

  private write(message: Buffer): void {
    if (!this.closed && this.socket.writable) this.socket.write(message);
  }

  private schedule(delayMs: number, action: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      action();
    }, delayMs);
    this.timers.add(timer);
  }

  private fail(error: unknown): void {
    if (error instanceof WireProtocolError) this.options.onProtocolError?.(error);
    this.close();
  }
}

/** Encodes a reply; a reply that cannot be serialised (e.g. too large) becomes an InternalError reply. */
function encodeReplySafely(reply: Document, encode: (document: Document) => Buffer): Buffer {
  try {
    return encode(reply);
  } catch (error) {
    return encode(errorReply(error));
  }
}
