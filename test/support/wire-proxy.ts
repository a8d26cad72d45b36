import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import type { Document } from 'bson';
import { decodeMessage } from '../../src/embedded-mongo/wire/message-decoder';
import { MessageFramer } from '../../src/embedded-mongo/wire/message-framer';
import { OpCode } from '../../src/embedded-mongo/protocol/wire-constants';

/**
 * A TCP proxy between a client and MongoDB that can hold one command: the first client message whose
 * command `hold` picks is not forwarded, nor is anything after it on that connection, and `held`
 * resolves with it. It can also cut the connection of every command `lose` picks. A fault scenario then kills the client at a known point of its work (between two
 * commands of one mutation), which no timing can reach reliably.
 */
export interface WireProxy {
  /** `mongodb://127.0.0.1:<port>/…`: the upstream URI with the proxy's port, as a direct connection. */
  readonly uri: string;
  readonly held: Promise<Document>;
  /** Closes the held command's connection, as a network failure would (the client sees its connection lost). */
  dropHeld(): void;
  close(): Promise<void>;
}

/** `lose`: every command it picks loses its connection as it arrives (a network failure each time it is sent). */
export async function startWireProxy(upstreamUri: string, hold: (command: Document) => boolean, lose: (command: Document) => boolean = () => false): Promise<WireProxy> {
  const upstream = new URL(upstreamUri);
  const sockets = new Set<Socket>();
  let holding = false;
  let heldConnection: readonly Socket[] = [];
  let resolveHeld!: (command: Document) => void;
  const held = new Promise<Document>((resolve) => (resolveHeld = resolve));
  const server: Server = createServer((client) => {
    const server = connect(Number(upstream.port), upstream.hostname);
    for (const socket of [client, server]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        server.destroy();
      });
    }
    server.pipe(client);
    const framer = new MessageFramer();
    let stopped = false;
    client.on('data', (chunk: Buffer) => {
      if (stopped) return;
      for (const message of framer.push(chunk)) {
        const decoded = decodeMessage(message);
        if (decoded.opCode === OpCode.Msg && lose(decoded.command)) {
          stopped = true;
          client.destroy();
          server.destroy();
          return;
        }
        if (!holding && decoded.opCode === OpCode.Msg && hold(decoded.command)) {
          holding = true;
          stopped = true;
          heldConnection = [client, server];
          resolveHeld(decoded.command);
          return;
        }
        server.write(message);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(upstreamUri);
  proxied.port = String((server.address() as AddressInfo).port);
  // One host, the proxy: replica-set discovery would send the client to the members around it.
  proxied.searchParams.delete('replicaSet');
  proxied.searchParams.set('directConnection', 'true');
  return {
    uri: proxied.toString(),
    held,
    dropHeld() {
      for (const socket of heldConnection) socket.destroy();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
