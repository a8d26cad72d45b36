import { ConfigError, loadConfig, redactSecrets } from '../../config/config';
import { StorageConfigError } from '../../gateway';
import { ProjectConfigError } from '../../project/load-project';
import { describeDatabase } from '../../server/describe-database';
import { answerWithoutRunning } from '../../command-line/answer-without-running';
import { clientForCommand } from '../../command-line/mongo-target';
import { loadProjectTarget } from '../../command-line/project-flags';
import type { CliEnv, CliIo } from '../../command-line/cli-io';
import { createProgressPrinter, formatSummary } from './progress-printer';
import { NO_MONGO_MESSAGE, parseSeedArgs, SEED_USAGE, type SeedCliCommand } from './seed-args';
import { configurationErrorText } from '../../command-line/configuration-error-text';

/** `docjoin seed [--scale N] [--mongo-uri URI] [--db NAME] [--config FILE]`; returns the exit code. */
export async function runSeedCli(argv: readonly string[], env: CliEnv, io: CliIo): Promise<number> {
  const command = parseSeedArgs(argv, env);
  if (command.kind !== 'seed') return answerWithoutRunning('seed', command, SEED_USAGE, io);
  return seed(command, env, io);
}

async function seed(command: Extract<SeedCliCommand, { kind: 'seed' }>, env: CliEnv, io: CliIo): Promise<number> {
  let target: { uri: string; db: string; seed: NonNullable<Awaited<ReturnType<typeof loadProjectTarget>>['config']['seed']> };
  try {
    const project = await loadProjectTarget(command.project);
    const config = loadConfig(env, { mongoUri: command.mongoUri, db: command.db }, project.config);
    if (config.mongodbUri === undefined) throw new ConfigError(NO_MONGO_MESSAGE);
    if (project.config.seed === undefined) throw new ConfigError(`${project.configFile ?? 'the project'} has no seed function; add seed: async (db, { scale, onProgress }) => { … } to it`);
    target = { uri: config.mongodbUri, db: config.mongodbDb, seed: project.config.seed };
  } catch (error) {
    if (!(error instanceof ConfigError || error instanceof ProjectConfigError || error instanceof StorageConfigError)) throw error;
    io.err.write(`seed: ${configurationErrorText(error)}\n`);
    return 2;
  }
  const where = `${target.db} on ${redactSecrets(target.uri)}`;
  const started = performance.now();
  const client = clientForCommand(target.uri);
  const progress = createProgressPrinter(io.out);
  try {
    await client.connect();
    const db = client.db(target.db);
    await target.seed(db, { scale: command.scale, onProgress: progress.onProgress });
    progress.finish();
    io.out.write(formatSummary(await describeDatabase(db), where, command.scale, performance.now() - started));
    return 0;
  } catch (error) {
    progress.finish();
    const reason = error instanceof Error ? error.message : String(error);
    io.err.write(`seed: seeding ${where} failed: ${reason.split('\n')[0]}\n`);
    return 1;
  } finally {
    await client.close();
  }
}
