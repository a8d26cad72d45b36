import { createServer } from 'node:net';

/** The HTTP port is taken by another process: one line for the CLI, with the fix. */
export class PortInUseError extends Error {
  override readonly name = 'PortInUseError';

  constructor(readonly port: number) {
    super(`port ${port} is already in use by another process; stop that process or choose another port (PORT=… or --port …; 0 picks a free one)`);
  }
}

/**
 * Fails with PortInUseError when `port` cannot be listened on, before a long start (seeding) would
 * find it out. The port is released again at once; 0 always passes.
 */
export async function assertPortFree(port: number, host: string | undefined): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE' ? new PortInUseError(port) : error));
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}
