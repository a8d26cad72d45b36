import { MongoClient } from 'mongodb';
import { answerWithoutRunning } from '../cli/args/answer-without-running';
import { loadSdl } from '../gateway/schema/load-sdl';
import { buildWriteModelFromSdl } from '../gateway/writes/build-write-model';
import { redactPassword } from '../seed/cli';
import { parseReconcileArgs, RECONCILE_USAGE } from './cli-args';
import type { OutputStream } from '../cli/cli-io';
import { createReconcileProgress, formatReport } from './format-report';
import { reconcile } from './reconcile';

/** `npm run reconcile -- [--fix] [--mongo-uri URI] [--db NAME] [--batch-size N]`; returns the exit code. */
export async function runReconcileCli(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, io: { out: OutputStream; err: OutputStream }): Promise<number> {
  const command = parseReconcileArgs(argv, env);
  if (command.kind !== 'reconcile') return answerWithoutRunning('reconcile', command, RECONCILE_USAGE, io);
  return run(command, io);
}

async function run(command: { fix: boolean; mongoUri: string; dbName: string; batchSize: number }, io: { out: OutputStream; err: OutputStream }): Promise<number> {
  const target = `${command.dbName} on ${redactPassword(command.mongoUri)}`;
  const started = performance.now();
  const timeoutInUri = /[?&]serverSelectionTimeoutMS=/i.test(command.mongoUri);
  const client = new MongoClient(command.mongoUri, timeoutInUri ? {} : { serverSelectionTimeoutMS: 5_000 });
  const progress = createReconcileProgress(io.out);
  try {
    const model = buildWriteModelFromSdl(loadSdl());
    await client.connect();
    const report = await reconcile(client.db(command.dbName), model, { fix: command.fix, batchSize: command.batchSize, onProgress: progress.onProgress });
    progress.finish();
    io.out.write(formatReport(report, target, performance.now() - started));
    return report.drifted > report.fixed ? 3 : 0;
  } catch (error) {
    progress.finish();
    const reason = error instanceof Error ? error.message : String(error);
    io.err.write(`reconcile: checking ${target} failed: ${reason.split('\n')[0]}\n`);
    return 1;
  } finally {
    await client.close();
  }
}

if (require.main === module) {
  runReconcileCli(process.argv.slice(2), process.env, { out: process.stdout, err: process.stderr }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`reconcile: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
