import { MongoClient } from 'mongodb';
import { answerWithoutRunning } from '../cli/args/answer-without-running';
import { parseSeedArgs, SEED_USAGE } from './cli-args';
import type { OutputStream } from '../cli/cli-io';
import { createProgressPrinter, formatSummary } from './progress-printer';
import { seedDemoData } from './seed-database';

/** `npm run seed -- --scale N [--mongo-uri URI] [--db NAME]`; returns the exit code. */
export async function runSeedCli(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  io: { out: OutputStream; err: OutputStream },
): Promise<number> {
  const command = parseSeedArgs(argv, env);
  if (command.kind !== 'seed') return answerWithoutRunning('seed', command, SEED_USAGE, io);
  return seed(command.mongoUri, command.dbName, command.scale, io);
}

async function seed(
  mongoUri: string,
  dbName: string,
  scale: number,
  io: { out: OutputStream; err: OutputStream },
): Promise<number> {
  const target = `${dbName} on ${redactPassword(mongoUri)}`;
  const started = performance.now();
  // Fail within seconds on an unreachable server (the driver's default is 30 s), unless the URI says otherwise.
  const timeoutInUri = /[?&]serverSelectionTimeoutMS=/i.test(mongoUri);
  const client = new MongoClient(mongoUri, timeoutInUri ? {} : { serverSelectionTimeoutMS: 5_000 });
  const progress = createProgressPrinter(io.out);
  try {
    await client.connect();
    const summary = await seedDemoData(client.db(dbName), { scale, onProgress: progress.onProgress });
    progress.finish();
    io.out.write(formatSummary(summary, target, performance.now() - started));
    return 0;
  } catch (error) {
    progress.finish();
    const reason = error instanceof Error ? error.message : String(error);
    io.err.write(`seed: seeding ${target} failed: ${reason.split('\n')[0]}\n`);
    return 1;
  } finally {
    await client.close();
  }
}

/** Keeps credentials out of terminal output and CI logs. */
export function redactPassword(uri: string): string {
  return uri.replace(/^(mongodb(?:\+srv)?:\/\/[^:@/]+):[^@/]*@/, '$1:***@');
}

if (require.main === module) {
  runSeedCli(process.argv.slice(2), process.env, { out: process.stdout, err: process.stderr }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`seed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
