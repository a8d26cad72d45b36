import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { UnreadResponses } from '../../../../src/gateway/http/unread-responses';

const MB = 1024 * 1024;

/** A server answering every request with `bytes` of body, tracked by `unread`; `answered` resolves with each answer's response as it is sent. */
class BigAnswers {
  readonly responses: ServerResponse[] = [];
  readonly #server: Server;
  #port = 0;

  constructor(unread: UnreadResponses, bytes: number) {
    const body = 'x'.repeat(bytes);
    this.#server = createServer((_request, response) => {
      this.responses.push(response);
      unread.send(response, body, bytes);
    });
  }

  get port(): number {
    return this.#port;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.#server.listen(0, '127.0.0.1', resolve));
    this.#port = (this.#server.address() as AddressInfo).port;
    return this;
  }

  /** A client that sends one request, then reads nothing once its answer starts coming; with the server's side of it. */
  async stalledClient(): Promise<{ socket: Socket; served: ServerResponse }> {
    const socket = connect(this.#port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await new Promise<void>((resolve) => socket.once('data', () => resolve()));
    socket.pause();
    return { socket, served: this.responses[this.responses.length - 1]! };
  }

  /** A client that reads its whole answer of `bytes`. */
  async readingClient(bytes: number): Promise<Socket> {
    const socket = connect(this.#port, '127.0.0.1');
    let received = 0;
    const all = new Promise<void>((resolve) => socket.on('data', (chunk: Buffer) => ((received += chunk.length) >= bytes ? resolve() : undefined)));
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await all;
    return socket;
  }

  async stop(): Promise<void> {
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}

/** Once the server has closed `response`'s connection (its socket is detached then). */
const closed = (response: ServerResponse): Promise<void> => new Promise((resolve) => (!response.socket || response.socket.destroyed ? resolve() : response.once('close', () => resolve())));

describe('UnreadResponses', () => {
  const servers: BigAnswers[] = [];
  const start = async (unread: UnreadResponses, bytes: number) => {
    const server = await new BigAnswers(unread, bytes).start();
    servers.push(server);
    return server;
  };
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.stop();
  });

  it('closes the connection of a client that takes nothing of its answer for stallMs, and lets the answer go', async () => {
    const unread = new UnreadResponses(1_000 * MB, 200);
    const server = await start(unread, 24 * MB);
    const { socket, served } = await server.stalledClient();
    expect(unread.bytes).toBe(24 * MB);
    await closed(served);
    expect(unread.bytes).toBe(0);
    socket.destroy();
  }, 20_000);

  it('tracks answers pipelined behind one the client does not read, though they have no socket yet, and cuts them too', async () => {
    const unread = new UnreadResponses(1_000 * MB, 2_000);
    const server = await start(unread, 8 * MB);
    const socket = connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write('GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\nGET /3 HTTP/1.1\r\nHost: x\r\n\r\n');
    socket.pause();
    while (server.responses.length < 3) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(unread.bytes).toBe(3 * 8 * MB);
    await Promise.all(server.responses.map(closed));
    expect(unread.bytes).toBe(0);
    socket.destroy();
  }, 20_000);

  it('over its budget, closes the connection that has waited longest, keeping the newest', async () => {
    const unread = new UnreadResponses(40 * MB, 60_000);
    const server = await start(unread, 24 * MB);
    const first = await server.stalledClient();
    expect(unread.bytes).toBe(24 * MB);
    const second = await server.stalledClient();
    await closed(first.served);
    expect([second.served.socket?.destroyed, unread.bytes]).toEqual([false, 24 * MB]);
    expect(second.served.socket).not.toBeNull();
    first.socket.destroy();
    second.socket.destroy();
  }, 20_000);

  it('keeps the connection of a client that reads slowly but steadily, longer than stallMs in all (a piece taken every ~0.2 s)', async () => {
    const unread = new UnreadResponses(1_000 * MB, 1_500);
    const server = await start(unread, 24 * MB);
    const socket = connect(server.port, '127.0.0.1');
    let received = 0;
    const whole = new Promise<void>((resolve, reject) => {
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        // A pause after each piece read: the whole answer takes several times stallMs.
        socket.pause();
        setTimeout(() => socket.resume(), 10);
        if (received >= 24 * MB) resolve();
      });
      socket.once('close', () => reject(new Error(`cut after ${received} bytes`)));
    });
    socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await whole;
    expect(unread.bytes).toBe(0);
    socket.destroy();
  }, 60_000);

  it('lets go of an answer its client reads whole, and does not track a small one', async () => {
    const unread = new UnreadResponses(40 * MB, 60_000);
    const big = await start(unread, 4 * MB);
    const reader = await big.readingClient(4 * MB);
    await new Promise((resolve) => setImmediate(resolve));
    expect(unread.bytes).toBe(0);
    reader.destroy();
    const small = await start(unread, 1_000);
    const { socket } = await small.stalledClient();
    expect(unread.bytes).toBe(0);
    socket.destroy();
  }, 20_000);
});
