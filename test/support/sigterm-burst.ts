/**
 * How a process manager stops a server that is busy: `count` requests sent at once (each on its own
 * connection), and `afterMs` later SIGTERM to the whole process group (npm and the server alike).
 * Resolves with each request's outcome: its HTTP status, or the socket error's code (`ECONNRESET` for
 * a connection the kernel had accepted and the server then dropped).
 */
export async function sigtermDuringBurst(options: { url: string; query: string; processGroup: number; count?: number; afterMs?: number }): Promise<string[]> {
  const requests = Array.from({ length: options.count ?? 40 }, () =>
    fetch(options.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: options.query }) }).then(
      async (response) => {
        await response.arrayBuffer();
        return String(response.status);
      },
      (error: unknown) => socketErrorCode(error),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, options.afterMs ?? 30));
  process.kill(-options.processGroup, 'SIGTERM');
  return Promise.all(requests);
}

function socketErrorCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? cause.code : String(error);
}
