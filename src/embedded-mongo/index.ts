import { buildCommandTable } from './commands/command-table';
import { openDurableStore, type DurableStore, type RecoveryReport } from './persistence/durable-store';
import { startWireServer } from './server';
import { Store } from './storage/store';

export type { RecoveryReport } from './persistence/durable-store';

export interface EmbeddedMongoOptions {
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Milliseconds added to every reply, to show what round trips cost on a real network. */
  readonly latencyMs?: number;
  /**
   * Keep the data in this directory (created when missing): the server starts with what it holds,
   * and journals every change there before replying, so a restart, even after a SIGKILL, keeps
   * every acknowledged write. Undefined (the default): in memory only.
   */
  readonly dataDir?: string;
  /**
   * With `dataDir`: fsync the journal before replying to a command that changed data, so its
   * changes also survive a machine crash or power loss. Default false: they survive the process
   * being killed (the OS still holds what it wrote), not the machine going down.
   */
  readonly fsync?: boolean;
  /**
   * Present the server as a standalone `mongod` (no replica set): the driver runs no transaction and
   * no retryable write on it, and a command carrying a transaction number is refused, as MongoDB
   * does. For trying what a deployment without transactions does. Default false: a one-member replica set.
   */
  readonly standalone?: boolean;
}

export interface EmbeddedMongo {
  /** `mongodb://127.0.0.1:<port>/?directConnection=true` */
  readonly uri: string;
  /** With `dataDir`: what the start replayed and what it left out; undefined in memory. */
  readonly recovery: RecoveryReport | undefined;
  /** Closes every client connection and the listener. In memory, the data is discarded. */
  stop(): Promise<void>;
}

/** Starts a MongoDB-compatible server: with an empty in-memory store, or the store kept in `dataDir`. */
export async function startEmbeddedMongo(options: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo> {
  const port = options.port ?? 0;
  const latencyMs = options.latencyMs ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new TypeError(`startEmbeddedMongo: option "port" must be an integer from 0 to 65535, got ${String(options.port)}`);
  }
  if (!Number.isFinite(latencyMs) || latencyMs < 0) {
    throw new TypeError(`startEmbeddedMongo: option "latencyMs" must be a number ≥ 0, got ${String(options.latencyMs)}`);
  }
  if (options.dataDir !== undefined && (typeof options.dataDir !== 'string' || options.dataDir === '')) {
    throw new TypeError(`startEmbeddedMongo: option "dataDir" must be a directory path, got ${JSON.stringify(options.dataDir)}`);
  }
  if (options.fsync !== undefined && typeof options.fsync !== 'boolean') {
    throw new TypeError(`startEmbeddedMongo: option "fsync" must be a boolean, got ${String(options.fsync)}`);
  }
  if (options.fsync === true && options.dataDir === undefined) {
    throw new TypeError('startEmbeddedMongo: option "fsync" needs option "dataDir" (there is nothing to sync in memory)');
  }
  if (options.standalone !== undefined && typeof options.standalone !== 'boolean') {
    throw new TypeError(`startEmbeddedMongo: option "standalone" must be a boolean, got ${String(options.standalone)}`);
  }
  const durable: DurableStore | undefined = options.dataDir === undefined ? undefined : openDurableStore({ dataDir: options.dataDir, fsync: options.fsync });
  const store = durable?.store ?? new Store();
  const server = await startWireServer({ port, latencyMs, commands: (view) => buildCommandTable(store, view, options.standalone === true) }).catch((error: unknown) => {
    durable?.close();
    throw error;
  });
  return {
    uri: `mongodb://127.0.0.1:${server.port}/?directConnection=true`,
    recovery: durable?.recovery,
    stop: async () => {
      await server.stop();
      durable?.close();
    },
  };
}
