import { answerWithoutRunning } from '../command-line/answer-without-running';
import { clientForCommand } from '../command-line/mongo-target';
import { loadProjectTarget } from '../command-line/project-flags';
import { ConfigError, loadConfig, redactSecrets } from '../config/config';
import { StorageConfigError, buildWriteModelFromSdl, type WriteModel } from '../gateway';
import { ProjectConfigError } from '../project/load-project';
import { NO_MONGO_MESSAGE, parseReconcileArgs, RECONCILE_USAGE, type ReconcileCliCommand } from './cli-args';
import type { OutputStream } from '../command-line/cli-io';
import { createReconcileProgress, formatReport, reconcileVerdict } from './format-report';
import { reconcile } from './reconcile';
import { configurationErrorText } from '../command-line/configuration-error-text';

/** `docjoin reconcile [--fix] [--mongo-uri URI] [--db NAME] [--batch-size N] [--config FILE]`; returns the exit code. */
export async function runReconcileCli(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, io: { out: OutputStream; err: OutputStream }): Promise<number> {
  const command = parseReconcileArgs(argv, env);
  if (command.kind !== 'reconcile') return answerWithoutRunning('reconcile', command, RECONCILE_USAGE, io);
  let target: { uri: string; db: string; model: WriteModel };
  try {
    const project = await loadProjectTarget(command.project);
    const config = loadConfig(env, { mongoUri: command.mongoUri, db: command.db }, project.config);
    if (config.mongodbUri === undefined) throw new ConfigError(NO_MONGO_MESSAGE);
    target = { uri: config.mongodbUri, db: config.mongodbDb, model: buildWriteModelFromSdl(project.typeDefs) };
  } catch (error) {
    if (!(error instanceof ConfigError || error instanceof ProjectConfigError || error instanceof StorageConfigError)) throw error;
    io.err.write(`reconcile: ${configurationErrorText(error)}\n`);
    return 2;
  }
  return run(command, target, io);
}

async function run(command: Extract<ReconcileCliCommand, { kind: 'reconcile' }>, target: { uri: string; db: string; model: WriteModel }, io: { out: OutputStream; err: OutputStream }): Promise<number> {
  const where = `${target.db} on ${redactSecrets(target.uri)}`;
  const started = performance.now();
  const client = clientForCommand(target.uri);
  const progress = createReconcileProgress(io.out);
  try {
    await client.connect();
    const report = await reconcile(client.db(target.db), target.model, { fix: command.fix, batchSize: command.batchSize, settleMs: command.settleMs, onProgress: progress.onProgress });
    progress.finish();
    io.out.write(formatReport(report, where, performance.now() - started));
    for (const mismatch of report.mismatches) io.err.write(`reconcile: ${mismatch}\n`);
    for (const warning of report.warnings) io.err.write(`reconcile: warning: ${warning}\n`);
    return reconcileVerdict(report).exitCode;
  } catch (error) {
    progress.finish();
    const reason = error instanceof Error ? error.message : String(error);
    io.err.write(`reconcile: checking ${where} failed: ${reason.split('\n')[0]}\n`);
    return 1;
  } finally {
    await client.close();
  }
}
