import { once } from 'node:events';
import { Socket } from 'node:net';
import { Long, UUID, type Document } from 'bson';
import { MongoClient } from 'mongodb';
import { CommandError } from '../../../src/embedded-mongo/protocol/command-error';
import type { CommandTable } from '../../../src/embedded-mongo/protocol/command-types';
import { handshakeCommands } from '../../../src/embedded-mongo/commands/handshake';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../src/embedded-mongo';
import { startWireServer, type WireServer } from '../../../src/embedded-mongo/server';
import { decodeMessage, type WireMessage } from '../../../src/embedded-mongo/wire/message-decoder';
import { encodeOpMsg, encodeOpQuery } from '../../../src/embedded-mongo/wire/message-encoder';
import { MessageFramer } from '../../../src/embedded-mongo/wire/message-framer';
import { OpCode } from '../../../src/embedded-mongo/protocol/wire-constants';
import { freePort } from './support/free-port';

/**
 * Raw TCP conversations with the server: framing, opcodes, flags and what a broken client can and
 * cannot do to the others. Embedded-only (these probe this server's wire layer).
 */
class RawClient {
  private readonly framer = new MessageFramer();
  private readonly received: WireMessage[] = [];
  private readonly waiting: Array<(message: WireMessage) => void> = [];
  readonly closed: Promise<void>;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      for (const bytes of this.framer.push(chunk)) {
        const message = decodeMessage(bytes);
        const waiter = this.waiting.shift();
        if (waiter) waiter(message);
        else this.received.push(message);
      }
    });
    socket.on('error', () => undefined);
    this.closed = once(socket, 'close').then(() => undefined);
  }

  static async connect(port: number): Promise<RawClient> {
    const socket = new Socket();
    socket.connect(port, '127.0.0.1');
    await once(socket, 'connect');
    return new RawClient(socket);
  }

  send(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  /** The next message from the server, failing after `timeoutMs`. */
  next(timeoutMs = 2000): Promise<WireMessage> {
    const ready = this.received.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply within ${timeoutMs} ms`)), timeoutMs);
      this.waiting.push((message) => {
        clearTimeout(timer);
        resolve(message);
      });
    });
  }

  /** Resolves true if the server closes the socket within `timeoutMs`. */
  async closesWithin(timeoutMs: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const result = await Promise.race([this.closed.then(() => true), timeout]);
    clearTimeout(timer);
    return result;
  }

  end(): void {
    this.socket.destroy();
  }
}

function opMsgBody(message: WireMessage): Document {
  if (message.opCode !== OpCode.Msg) throw new Error(`expected OP_MSG, got opcode ${message.opCode}`);
  return message.command;
}

const ping = (requestId: number, extra: Partial<Parameters<typeof encodeOpMsg>[0]> = {}): Buffer =>
  encodeOpMsg({ requestId, responseTo: 0, body: { ping: 1, $db: 'admin' }, ...extra });

function withOpCode(message: Buffer, opCode: number): Buffer {
  message.writeInt32LE(opCode, 12);
  return message;
}

const portOf = (uri: string): number => Number(new URL(uri).port);

/** Sends one OP_MSG command and reads its reply's body. */
async function roundTrip(raw: RawClient, requestId: number, body: Document): Promise<Document> {
  raw.send(encodeOpMsg({ requestId, responseTo: 0, body }));
  return opMsgBody(await raw.next());
}

describe('raw wire protocol against startEmbeddedMongo', () => {
  let server: EmbeddedMongo;
  let port: number;
  let client: MongoClient;
  const raws: RawClient[] = [];
  const connect = async (): Promise<RawClient> => {
    const raw = await RawClient.connect(port);
    raws.push(raw);
    return raw;
  };

  beforeAll(async () => {
    server = await startEmbeddedMongo();
    port = portOf(server.uri);
    client = await MongoClient.connect(server.uri);
  });

  afterEach(() => {
    for (const raw of raws.splice(0)) raw.end();
  });

  afterAll(async () => {
    await client.close();
    await server.stop();
  });

  it('answers the legacy OP_QUERY handshake with an OP_REPLY', async () => {
    const raw = await connect();
    raw.send(encodeOpQuery({ requestId: 77, fullCollectionName: 'admin.$cmd', query: { isMaster: 1, helloOk: true } }));
    const reply = await raw.next();
    expect(reply.opCode).toBe(OpCode.Reply);
    expect(reply.responseTo).toBe(77);
    if (reply.opCode !== OpCode.Reply) return;
    expect(reply.documents).toHaveLength(1);
    expect(reply.documents[0]).toMatchObject({ ismaster: true, helloOk: true, setName: 'docjoin', maxWireVersion: 21, ok: 1 });
  });

  it('refuses other commands over OP_QUERY with 352, as MongoDB 6+ does', async () => {
    const raw = await connect();
    raw.send(encodeOpQuery({ requestId: 1, fullCollectionName: 'admin.$cmd', query: { ping: 1 } }));
    raw.send(encodeOpQuery({ requestId: 2, fullCollectionName: 'test.people', query: { name: 'x' } }));
    for (const requestId of [1, 2]) {
      const reply = await raw.next();
      expect(reply.responseTo).toBe(requestId);
      expect(reply.opCode === OpCode.Reply && reply.documents[0]).toMatchObject({ ok: 0, code: 352, codeName: 'UnsupportedOpQueryCommand' });
    }
  });

  it('answers OP_MSG with OP_MSG whose responseTo is the request id', async () => {
    const raw = await connect();
    raw.send(ping(1234));
    const reply = await raw.next();
    expect(reply.opCode).toBe(OpCode.Msg);
    expect(reply.responseTo).toBe(1234);
    expect(opMsgBody(reply)).toEqual({ ok: 1 });
  });

  it('reassembles a message split across TCP writes and splits coalesced ones', async () => {
    const raw = await connect();
    const message = ping(10);
    raw.send(message.subarray(0, 3));
    await new Promise((resolve) => setTimeout(resolve, 20));
    raw.send(message.subarray(3, 25));
    await new Promise((resolve) => setTimeout(resolve, 20));
    raw.send(message.subarray(25));
    expect((await raw.next()).responseTo).toBe(10);

    raw.send(Buffer.concat([ping(11), ping(12), ping(13)]));
    expect([(await raw.next()).responseTo, (await raw.next()).responseTo, (await raw.next()).responseTo]).toEqual([11, 12, 13]);
  });

  it('sends no reply to a moreToCome endSessions, and still runs it: the session\'s transaction is aborted', async () => {
    const raw = await connect();
    const lsid = { id: new UUID() };
    const txn = { lsid, txnNumber: Long.fromNumber(1), autocommit: false };
    raw.send(
      encodeOpMsg({
        requestId: 499,
        responseTo: 0,
        body: { insert: 'ended', documents: [{ _id: 'pending' }], startTransaction: true, ...txn, $db: 'raw' },
      }),
    );
    expect(opMsgBody(await raw.next())).toEqual({ n: 1, ok: 1 });
    raw.send(encodeOpMsg({ requestId: 500, responseTo: 0, body: { endSessions: [lsid], $db: 'admin' }, moreToCome: true }));
    raw.send(ping(501));
    const first = await raw.next();
    expect(first.responseTo).toBe(501);
    expect(opMsgBody(first)).toEqual({ ok: 1 });
    // from another connection: the transaction is gone and its insert was never applied
    const other = await connect();
    other.send(encodeOpMsg({ requestId: 1, responseTo: 0, body: { commitTransaction: 1, ...txn, $db: 'admin' } }));
    expect(opMsgBody(await other.next())).toMatchObject({ ok: 0, code: 251, codeName: 'NoSuchTransaction' });
    expect(await client.db('raw').collection('ended').countDocuments()).toBe(0);
  });

  it('answers a committed transaction: a second commit succeeds, an operation or an abort in it gets 256 TransactionCommitted', async () => {
    const raw = await connect();
    const txn = { lsid: { id: new UUID() }, txnNumber: Long.fromNumber(1), autocommit: false };
    const send = (requestId: number, body: Document) => roundTrip(raw, requestId, body);
    expect(await send(600, { insert: 'committed', documents: [{ _id: 1 }], startTransaction: true, ...txn, $db: 'raw' })).toEqual({ n: 1, ok: 1 });
    expect(await send(601, { commitTransaction: 1, ...txn, $db: 'admin' })).toEqual({ ok: 1 });
    expect(await send(602, { commitTransaction: 1, ...txn, $db: 'admin' })).toEqual({ ok: 1 });
    for (const [requestId, body] of [
      [603, { find: 'committed', ...txn, $db: 'raw' }],
      [604, { abortTransaction: 1, ...txn, $db: 'admin' }],
    ] as const) {
      expect(await send(requestId, body)).toMatchObject({ ok: 0, code: 256, codeName: 'TransactionCommitted' });
    }
    expect(await client.db('raw').collection('committed').countDocuments()).toBe(1);
  });

  it('refuses a readConcern after the first command of a transaction, and a writeConcern inside one (72 InvalidOptions)', async () => {
    const raw = await connect();
    const txn = { lsid: { id: new UUID() }, txnNumber: Long.fromNumber(1), autocommit: false };
    const send = (requestId: number, body: Document) => roundTrip(raw, requestId, body);
    expect(await send(700, { find: 'concerns', readConcern: { level: 'snapshot' }, startTransaction: true, ...txn, $db: 'raw' })).toMatchObject({ ok: 1 });
    expect(await send(701, { find: 'concerns', readConcern: { level: 'majority' }, ...txn, $db: 'raw' })).toMatchObject({ ok: 0, code: 72, codeName: 'InvalidOptions' });
    expect(await send(702, { insert: 'concerns', documents: [{ _id: 1 }], writeConcern: { w: 1 }, ...txn, $db: 'raw' })).toMatchObject({ ok: 0, code: 72, codeName: 'InvalidOptions' });
  });

  it('accepts a message with a CRC-32C checksum and closes the connection on a wrong one', async () => {
    const raw = await connect();
    raw.send(ping(20, { checksum: true }));
    expect(opMsgBody(await raw.next())).toEqual({ ok: 1 });
    const corrupted = ping(21, { checksum: true });
    corrupted.writeUInt32LE((corrupted.readUInt32LE(corrupted.length - 4) + 1) >>> 0, corrupted.length - 4);
    raw.send(corrupted);
    expect(await raw.closesWithin(2000)).toBe(true);
  });

  it('answers an OP_MSG without $db with error 40571', async () => {
    const raw = await connect();
    raw.send(encodeOpMsg({ requestId: 30, responseTo: 0, body: { ping: 1 } }));
    expect(opMsgBody(await raw.next())).toEqual({ ok: 0, errmsg: 'OP_MSG requests require a $db argument', code: 40571, codeName: 'Location40571' });
  });

  it.each([
    ['an unknown opcode', (): Buffer => withOpCode(ping(40), 2012)],
    ['invalid BSON', (): Buffer => Buffer.from(ping(41)).fill(0x30, 25, 26)],
    ['a length prefix below the header size', (): Buffer => Buffer.from([8, 0, 0, 0, 0, 0, 0, 0])],
    ['an OP_REPLY from a client', (): Buffer => withOpCode(ping(42), OpCode.Reply)],
  ])('closes only the connection that sends %s', async (_label, makeBytes) => {
    const bad = await connect();
    const good = await connect();
    bad.send(makeBytes());
    expect(await bad.closesWithin(2000)).toBe(true);
    good.send(ping(50));
    expect((await good.next()).responseTo).toBe(50);
    expect(await client.db('admin').command({ ping: 1 })).toEqual({ ok: 1 });
  });

  it('closes a connection announcing a message over maxMessageSizeBytes before its body arrives', async () => {
    const bad = await connect();
    const header = Buffer.alloc(16);
    header.writeInt32LE(48_000_001, 0);
    header.writeInt32LE(1, 4);
    header.writeInt32LE(2013, 12);
    bad.send(header);
    expect(await bad.closesWithin(2000)).toBe(true);
    expect(await client.db('admin').command({ ping: 1 })).toEqual({ ok: 1 });
  });

  it('streams replies to an awaitable hello sent with exhaustAllowed', async () => {
    const raw = await connect();
    const hello = await client.db('admin').command({ hello: 1 }, { promoteLongs: false });
    raw.send(
      encodeOpMsg({
        requestId: 60,
        responseTo: 0,
        body: { hello: 1, topologyVersion: hello.topologyVersion, maxAwaitTimeMS: Long.fromNumber(50), $db: 'admin' },
        exhaustAllowed: true,
      }),
    );
    // The second reply answers the first (moreToCome streams on); when it comes is the server's timer, not asserted here.
    const first = await raw.next();
    const second = await raw.next();
    for (const reply of [first, second]) {
      expect(reply.opCode === OpCode.Msg && reply.moreToCome).toBe(true);
      expect(opMsgBody(reply)).toMatchObject({ isWritablePrimary: true, setName: 'docjoin', ok: 1 });
    }
    expect(first.responseTo).toBe(60);
    expect(second.responseTo).toBe(first.requestId);
  });
});

describe('wire server with a custom command table', () => {
  let server: WireServer;
  let client: MongoClient;
  const protocolErrors: Array<{ message: string; connectionId: number }> = [];
  const table: CommandTable = {
    echo: (command, context) => ({ command, db: context.db, connectionId: context.connectionId }),
    slowEcho: async (command) => {
      await new Promise((resolve) => setTimeout(resolve, Number(command.slowEcho)));
      return { value: command.slowEcho };
    },
    crash: () => {
      throw new TypeError('handler bug');
    },
    conflict: () => {
      throw new CommandError(112, 'WriteConflict', 'Write conflict', { details: 'x' }, ['TransientTransactionError']);
    },
    endSessions: () => ({}),
  };

  beforeAll(async () => {
    server = await startWireServer({
      port: 0,
      commands: (view) => ({ ...handshakeCommands(view), ...table }),
      onProtocolError: (error, connectionId) => protocolErrors.push({ message: error.message, connectionId }),
    });
    client = await MongoClient.connect(`mongodb://${server.address}/?directConnection=true`, { serverSelectionTimeoutMS: 2000 });
  });

  afterAll(async () => {
    await client?.close();
    await server?.stop();
  });

  it('passes document sequences to the handler merged into the command', async () => {
    const raw = await RawClient.connect(server.port);
    try {
      raw.send(
        encodeOpMsg({
          requestId: 1,
          responseTo: 0,
          body: { echo: 'people', $db: 'test' },
          sequences: [{ identifier: 'documents', documents: [{ _id: 1 }, { _id: 2 }] }],
        }),
      );
      const reply = opMsgBody(await raw.next());
      expect(reply.command).toEqual({ echo: 'people', $db: 'test', documents: [{ _id: 1 }, { _id: 2 }] });
      expect(reply.db).toBe('test');
      expect(reply.ok).toBe(1);
    } finally {
      raw.end();
    }
  });

  it('reports a handler bug as code 1 InternalError and keeps serving', async () => {
    await expect(client.db('x').command({ crash: 1 })).rejects.toMatchObject({ code: 1, codeName: 'InternalError', message: 'handler bug' });
    expect(await client.db('x').command({ ping: 1 })).toEqual({ ok: 1 });
  });

  it('reports a CommandError with its extra fields and error labels', async () => {
    const error = await client
      .db('x')
      .command({ conflict: 1 })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 112, codeName: 'WriteConflict', message: 'Write conflict', errorResponse: { details: 'x' } });
    expect((error as { hasErrorLabel(label: string): boolean }).hasErrorLabel('TransientTransactionError')).toBe(true);
  });

  it('reports why it closed a connection to onProtocolError', async () => {
    const raw = await RawClient.connect(server.port);
    raw.send(withOpCode(ping(1), 2012));
    await raw.closed;
    expect(protocolErrors).toHaveLength(1);
    expect(protocolErrors[0]?.message).toBe('unsupported opcode 2012');
    expect(server.clientAddress(protocolErrors[0]!.connectionId)).toBeUndefined();
  });

  it('gives each connection its own id', async () => {
    const a = await RawClient.connect(server.port);
    const b = await RawClient.connect(server.port);
    try {
      a.send(encodeOpMsg({ requestId: 1, responseTo: 0, body: { echo: 1, $db: 'x' } }));
      b.send(encodeOpMsg({ requestId: 1, responseTo: 0, body: { echo: 1, $db: 'x' } }));
      const idA = opMsgBody(await a.next()).connectionId;
      const idB = opMsgBody(await b.next()).connectionId;
      expect(idA).not.toBe(idB);
      expect(server.clientAddress(idA)).toMatch(/^127\.0\.0\.1:\d+$/);
    } finally {
      a.end();
      b.end();
    }
  });

  it('replies in request order even when an earlier handler is slower', async () => {
    const raw = await RawClient.connect(server.port);
    try {
      raw.send(
        Buffer.concat([
          encodeOpMsg({ requestId: 1, responseTo: 0, body: { slowEcho: 40, $db: 'x' } }),
          encodeOpMsg({ requestId: 2, responseTo: 0, body: { slowEcho: 0, $db: 'x' } }),
        ]),
      );
      const first = await raw.next();
      const second = await raw.next();
      expect([first.responseTo, opMsgBody(first).value]).toEqual([1, 40]);
      expect([second.responseTo, opMsgBody(second).value]).toEqual([2, 0]);
    } finally {
      raw.end();
    }
  });
});

describe('latencyMs', () => {
  it('delays every reply by at least latencyMs and keeps their order', async () => {
    const latencyMs = 120;
    const server = await startEmbeddedMongo({ latencyMs });
    const client = await MongoClient.connect(server.uri);
    const raw = await RawClient.connect(portOf(server.uri));
    try {
      const started = performance.now();
      await client.db('admin').command({ ping: 1 });
      // Timers have 1 ms resolution, so allow for rounding.
      expect(performance.now() - started).toBeGreaterThanOrEqual(latencyMs - 1);

      const sentAt = performance.now();
      raw.send(Buffer.concat([ping(1), ping(2)]));
      const first = await raw.next();
      expect(performance.now() - sentAt).toBeGreaterThanOrEqual(latencyMs - 1);
      expect([first.responseTo, (await raw.next()).responseTo]).toEqual([1, 2]);
    } finally {
      raw.end();
      await client.close();
      await server.stop();
    }
  });

  it('delays the legacy OP_REPLY handshake and every getMore too', async () => {
    const latencyMs = 80;
    const server = await startEmbeddedMongo({ latencyMs });
    const client = await MongoClient.connect(server.uri);
    const raw = await RawClient.connect(portOf(server.uri));
    try {
      const sentAt = performance.now();
      raw.send(encodeOpQuery({ requestId: 7, fullCollectionName: 'admin.$cmd', query: { isMaster: 1 } }));
      const reply = await raw.next();
      expect(performance.now() - sentAt).toBeGreaterThanOrEqual(latencyMs - 1);
      expect([reply.opCode, reply.responseTo]).toEqual([OpCode.Reply, 7]);

      const items = client.db('lat').collection('items');
      await items.insertMany(Array.from({ length: 30 }, (_, i) => ({ _id: i })) as Document[]);
      const cursor = items.find({}, { batchSize: 10 });
      for (let i = 0; i < 10; i += 1) await cursor.next(); // the first batch
      const getMoreAt = performance.now();
      expect((await cursor.next())?._id).toBe(10); // needs a getMore
      expect(performance.now() - getMoreAt).toBeGreaterThanOrEqual(latencyMs - 1);
      await cursor.close();
    } finally {
      raw.end();
      await client.close();
      await server.stop();
    }
  });
});

describe('startEmbeddedMongo({ port })', () => {
  it('listens on the port it is given and puts it in the URI', async () => {
    const port = await freePort();
    const server = await startEmbeddedMongo({ port });
    try {
      expect(server.uri).toBe(`mongodb://127.0.0.1:${port}/?directConnection=true`);
      const raw = await RawClient.connect(port);
      raw.send(ping(1));
      expect(opMsgBody(await raw.next())).toEqual({ ok: 1 });
      raw.end();
    } finally {
      await server.stop();
    }
  });
});
