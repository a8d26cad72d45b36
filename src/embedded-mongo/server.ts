import { createServer, type Server, type Socket } from 'node:net';
import type { CommandTable, ServerView } from './protocol/command-types';

export type { ServerView };
import { MAX_MESSAGE_SIZE_BYTES } from './protocol/wire-constants';
import { WireConnection } from './wire/wire-connection';
import type { WireProtocolError } from './wire/wire-protocol-error';

export interface WireServerOptions {
  /** 0 (the default) picks a free port. */
  readonly port?: number;
  readonly host?: string;
  /** Delay added to every reply. */
  readonly latencyMs?: number;
  /** Builds the command table once the server exists (handshake commands need its address). */
  readonly commands: (server: ServerView) => CommandTable;
  readonly maxMessageSize?: number;
  /** Told about each connection closed for sending a malformed message. */
  readonly onProtocolError?: (error: WireProtocolError, connectionId: number) => void;
}

export interface WireServer extends ServerView {
  readonly port: number;
  /** Closes every connection and the listener; resolves when both are gone. */
  stop(): Promise<void>;
}

/** Listens on TCP and serves the MongoDB wire protocol with the given commands. */
export async function startWireServer(options: WireServerOptions): Promise<WireServer> {
  const host = options.host ?? '127.0.0.1';
  const latencyMs = options.latencyMs ?? 0;
  const connections = new Map<number, WireConnection>();
  let lastConnectionId = 0;
  let lastRequestId = 0;
  const nextRequestId = (): number => (lastRequestId = (lastRequestId % 0x7fffffff) + 1);
  const netServer: Server = createServer();

  let stopping: Promise<void> | undefined;
  const server: WireServer = {
    get port() {
      const address = netServer.address();
      return typeof address === 'object' && address !== null ? address.port : 0;
    },
    get address() {
      return `${host}:${this.port}`;
    },
    startedAt: new Date(),
    clientAddress: (connectionId) => connections.get(connectionId)?.remoteAddress,
    get connectionCount() {
      return connections.size;
    },
    get totalConnections() {
      return lastConnectionId;
    },
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        netServer.close(() => resolve());
        for (const connection of [...connections.values()]) connection.close();
      });
      return stopping;
    },
  };
  const commands = options.commands(server);

  netServer.on('connection', (socket: Socket) => {
    const connectionId = ++lastConnectionId;
    const connection = new WireConnection(socket, {
      connectionId,
      commands,
      latencyMs,
      nextRequestId,
      maxMessageSize: options.maxMessageSize ?? MAX_MESSAGE_SIZE_BYTES,
      onClose: () => connections.delete(connectionId),
      onProtocolError: (error) => options.onProtocolError?.(error, connectionId),
    });
    connections.set(connectionId, connection);
  });

  await new Promise<void>((resolve, reject) => {
    netServer.once('error', reject);
    netServer.listen(options.port ?? 0, host, () => {
      netServer.off('error', reject);
      resolve();
    });
  });

  return server;
}
