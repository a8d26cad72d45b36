import { ConfigError, loadConfig } from '../../config/config';
import { StorageConfigError } from '../../gateway';
import { ProjectConfigError, type Project } from '../../project/load-project';
import { loadProjectTarget } from '../../command-line/project-flags';
import { createProgressPrinter } from '../seed/progress-printer';
import { createLogger } from '../../observability/logger';
import { startFailureOf } from '../../server/start-failure';
import { startServer, type RunningServer } from '../../server/start-server';
import { answerWithoutRunning } from '../../command-line/answer-without-running';
import type { CliEnv, CliIo } from '../../command-line/cli-io';
import { nextStopSignal } from '../../command-line/stop-signal';
import { parseServeArgs, SEED_SCALE_WITH_MONGODB, SERVE_USAGE } from './serve-args';

/**
 * `docjoin serve` (and `npm start`): starts the server and resolves with the exit code once a SIGINT or
 * SIGTERM has stopped it; 1 when it cannot start, 2 on bad arguments or configuration.
 */
export async function runServeCli(argv: readonly string[], env: CliEnv, io: CliIo): Promise<number> {
  const command = parseServeArgs(argv, env);
  if (command.kind !== 'serve') return answerWithoutRunning('serve', command, SERVE_USAGE, io);
  let project: Project;
  let config: typeof command.config;
  try {
    project = await loadProjectTarget(command.project);
    config = loadConfig(env, command.flags, project.config);
    if (command.flags.seedScale !== undefined && config.mongodbUri !== undefined) throw new ConfigError(SEED_SCALE_WITH_MONGODB);
  } catch (error) {
    if (!(error instanceof ProjectConfigError || error instanceof ConfigError || error instanceof StorageConfigError)) throw error;
    io.err.write(`docjoin: ${error.message}\n`);
    return 2;
  }

  // Pretty logs on a terminal keep the in-place seeding line; JSON logs get a line per seeded collection.
  const progress = config.logFormat === 'pretty' ? createProgressPrinter(io.out) : undefined;
  const out = { isTTY: io.out.isTTY, write: (text: string) => (progress?.finish(), io.out.write(text)) };
  const logger = createLogger({ level: config.logLevel, format: config.logFormat, destination: out, knownUris: [config.mongodbUri] });
  const onSeedProgress =
    progress?.onProgress ??
    ((collection: string, inserted: number, total: number) => {
      if (inserted === total) logger.info({ collection, documents: total }, `seeded ${collection}`);
    });
  // Listening before the start: a signal once the URL is printed, before startServer returns, must still
  // drain rather than kill. One that comes during the start stops the server as soon as it is up; a
  // repeated SIGTERM changes nothing, a second SIGINT ends the process at once.
  const stopSignal = nextStopSignal({
    onRepeat: (signal) => logger.info({ signal }, `${signal} again: already shutting down`),
    onOrphaned: (parentPid) => logger.warn({ parentPid }, `the process that started docjoin (pid ${parentPid}) has exited without stopping it: stopping as on SIGTERM`),
  });
  let server: RunningServer;
  try {
    server = await startServer(config, project, { logger, onSeedProgress });
  } catch (error) {
    progress?.finish();
    const failure = startFailureOf(error);
    // The warnings logged during the start (written with the event loop's next turn) come before the reason it stopped.
    logger.flush();
    io.err.write(`docjoin: ${failure ? failure.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    stopSignal.cancel();
    return failure?.exitCode ?? 1;
  }
  const signal = await stopSignal.signal;
  logger.info({ signal }, `${signal}: shutting down`);
  try {
    // A process manager's SIGTERM gets the lame-duck period; Ctrl-C (SIGINT) at a terminal stops at once.
    await server.stop({ drainFirst: signal === 'SIGTERM' });
    logger.info('stopped');
    return 0;
  } catch (error) {
    io.err.write(`docjoin: stopping failed: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    stopSignal.cancel();
  }
}
