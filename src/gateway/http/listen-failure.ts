import { createServer } from 'node:net';

/** The HTTP port is taken by another process: one line for the CLI, with the fix. */
export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';

  constructor(readonly port: number) {
    super(`port ${port} is already in use by another process; stop that process or choose another port (PORT=… or --port …; 0 picks a free one)`);
  }
}

/** The configured host or port can never be listened on here (an option to fix): one line, with the fix. */
export class CannotListenError extends Error {
  override readonly name = 'CannotListenError';

  constructor(message: string) {
    super(message);
  }
}

/**
 * Why listening on `host`:`port` failed, as one of the errors above when the reason is the address:
 * taken (PortInUseError), not this machine's or not resolvable (server.host) or not allowed (a
 * privileged port). Any other error is returned as it is.
 */
export function listenFailure(error: NodeJS.ErrnoException, port: number, host: string | undefined): Error {
  const code = error.code;
  if (code === 'EADDRINUSE') return new PortInUseError(port);
  if (code === 'EADDRNOTAVAIL') return new CannotListenError(`server.host ${JSON.stringify(host)}: no network interface of this machine has that address (EADDRNOTAVAIL); set server.host to one of its addresses, "0.0.0.0" for all of them, or "localhost"`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'EAI_NONAME') return new CannotListenError(`server.host ${JSON.stringify(host)}: the name does not resolve to an address (${code}); set server.host to an address of this machine, "0.0.0.0" for all of them, or "localhost"`);
  if (code === 'EACCES') return new CannotListenError(`port ${port}: this process may not listen on it (EACCES; ports below 1024 need privileges); choose a port from 1024 up (PORT=… or --port …) and map it in front if clients need a low one`);
  return error;
}

/**
 * Fails with PortInUseError or CannotListenError when `host`:`port` cannot be listened on, before a long
 * start (seeding) would find it out. The port is released again at once; port 0 checks the host alone.
 */
export async function assertCanListen(port: number, host: string | undefined): Promise<void> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) => reject(listenFailure(error, port, host)));
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
