import type { OperationName, OperationVariables } from './peer-operations';

/**
 * What each implementation module exports (`start`), run inside its own child process by peer-process.ts.
 * A GraphQL server answers over HTTP on 127.0.0.1; the raw driver floor has no HTTP and runs its
 * operations in the child when asked.
 */
export interface PeerStartOptions {
  readonly mongoUri: string;
  readonly dbName: string;
  /**
   * When given, turn command monitoring on and attach this to each client you create: it counts their
   * commands. When not, leave monitoring off (the driver then skips deserializing every reply a second
   * time for the event), as these servers run in production.
   */
  readonly commands: CommandCounter | undefined;
}

export interface HttpPeer {
  readonly kind: 'http';
  /** POST a GraphQL request to `http://127.0.0.1:<port>/graphql`. */
  readonly port: number;
  stop(): Promise<void>;
}

export interface InProcessPeer {
  readonly kind: 'in-process';
  /** The operation's `data`, built exactly as a GraphQL server would answer it. */
  execute(operation: OperationName, variables: OperationVariables): Promise<unknown>;
  stop(): Promise<void>;
}

export type RunningPeer = HttpPeer | InProcessPeer;

/** A client with command monitoring on: the driver's (either copy: mongoose brings its own) or docjoin's. */
export interface MonitoredClient {
  on(event: 'commandStarted', listener: () => void): unknown;
}

/**
 * The round trips of one process: every `commandStarted` event of its clients (getMore and
 * commitTransaction included; handshakes and heartbeats are not command events).
 */
export class CommandCounter {
  #count = 0;

  get count(): number {
    return this.#count;
  }

  attach(client: MonitoredClient): void {
    client.on('commandStarted', () => {
      this.#count++;
    });
  }
}
