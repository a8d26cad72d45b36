import type { CliEnv, CliIo } from '../../command-line/cli-io';
import { nextStopSignal } from '../../command-line/stop-signal';
import { embeddedMongoUsage, parseCliArgs, serverOptionsOf } from '../../embedded-mongo/cli';
import { startEmbeddedMongo } from '../../embedded-mongo';

/**
 * `docjoin mongo`: the embedded MongoDB-compatible server on its own, for tools and tests that need a
 * MongoDB URI on a machine without MongoDB. Prints the URI, then serves until SIGINT or SIGTERM.
 */
export async function runMongoCli(argv: readonly string[], _env: CliEnv, io: CliIo): Promise<number> {
  let options;
  try {
    options = parseCliArgs(argv);
  } catch (error) {
    io.err.write(`docjoin mongo: ${(error as Error).message}\n`);
    return 2;
  }
  if (options.help) {
    io.out.write(`${embeddedMongoUsage('docjoin mongo')}\n`);
    return 0;
  }
  const stopSignal = nextStopSignal({ onOrphaned: (parentPid) => io.err.write(`docjoin mongo: the process that started it (pid ${parentPid}) has exited: stopping\n`) });
  let server;
  try {
    server = await startEmbeddedMongo(serverOptionsOf(options));
  } catch (error) {
    // A taken port, a data directory it cannot write: one line.
    io.err.write(`docjoin mongo: ${error instanceof Error ? error.message : String(error)}\n`);
    stopSignal.cancel();
    return 1;
  }
  const ignoredBytes = server.recovery?.ignoredBytes ?? 0;
  if (ignoredBytes > 0) io.err.write(`docjoin mongo: ignored an incomplete record at the end of the journal (${ignoredBytes} bytes), as a write cut off by a crash leaves it\n`);
  io.out.write(`${server.uri}\n`);
  const signal = await stopSignal.signal;
  io.err.write(`docjoin mongo: ${signal}, stopping\n`);
  try {
    await server.stop();
  } finally {
    stopSignal.cancel();
  }
  return 0;
}
