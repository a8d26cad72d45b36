import { buildCommandTable } from './commands/command-table';
import { startWireServer } from './server';
import { Store } from './storage/store';

export interface EmbeddedMongoOptions {
  /** TCP port on 127.0.0.1; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Milliseconds added to every reply, to show what round trips cost on a real network. */
  readonly latencyMs?: number;
}

export interface EmbeddedMongo {
  /** `mongodb://127.0.0.1:<port>/?directConnection=true` */
  readonly uri: string;
  /** Closes every client connection and the listener. The data is discarded. */
  stop(): Promise<void>;
}

/** Starts an in-memory MongoDB-compatible server with an empty store. */
export async function startEmbeddedMongo(options: EmbeddedMongoOptions = {}): Promise<EmbeddedMongo> {
  const port = options.port ?? 0;
  const latencyMs = options.latencyMs ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new TypeError(`startEmbeddedMongo: option "port" must be an integer from 0 to 65535, got ${String(options.port)}`);
  }
  if (!Number.isFinite(latencyMs) || latencyMs < 0) {
    throw new TypeError(`startEmbeddedMongo: option "latencyMs" must be a number ≥ 0, got ${String(options.latencyMs)}`);
  }
  const store = new Store();
  const server = await startWireServer({ port, latencyMs, commands: (view) => buildCommandTable(store, view) });
  return {
    uri: `mongodb://127.0.0.1:${server.port}/?directConnection=true`,
    stop: () => server.stop(),
  };
}
