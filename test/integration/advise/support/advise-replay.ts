import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IResolvers } from '@graphql-tools/utils';
import type { Db } from 'mongodb';
import { connectMongo, readWorkload, withDirectiveTypeDefs, type AuthOptions, type MutationWritePlans, type Viewer, type WorkloadSummary } from 'docjoin';
import type { AdviceReport, FieldAdvice } from '../../../../src/advise/recommend/advice-types';
import { runDocjoinCli } from '../../../../src/cli/docjoin';
import { gatewaySettingsOf, loadConfig } from '../../../../src/config/config';
import { createCheckedGateway } from '../../../support/checked-gateway';
import type { TestMongo } from '../../../support/test-mongo';
import { captureIo } from '../../../unit/cli/capture-io';

/** One operation of a recorded workload, replayed as it was sent. */
export interface ReplayedOperation {
  readonly query: string;
  readonly variables?: Record<string, unknown>;
}

/** A project to advise on, and the workload to record on it: its schema files, its code, its seed. */
export interface ReplayProject {
  /** The folder of the project's .graphql files. */
  readonly schemaDir: string;
  /** The project's config, as `docjoin advise --config` loads it (its resolvers and write plans price the writes). */
  readonly config: string;
  readonly resolvers: IResolvers | IResolvers[];
  readonly writePlans: MutationWritePlans;
  readonly auth?: AuthOptions;
  /** Who sends the operations (a project with access rules). */
  readonly viewer?: Viewer;
  seed(db: Db): Promise<void>;
  /** The workload, from the seeded ids (the same on every seed). */
  operations(db: Db): Promise<readonly ReplayedOperation[]>;
  /** The round trip the advice prices lookups at (`--latency-ms`); default 0: a test machine beside its database. */
  readonly latencyMs?: number;
  /** `measured`: advise prices at the recorded command times and probes the server (default: `--assumed-costs`). */
  readonly costs?: 'assumed' | 'measured';
}

/** A change the advice gave, applied by `docjoin migrate` to a fresh copy of the data, and the same workload recorded again. */
export interface Replayed {
  readonly advice: FieldAdvice;
  /** What `docjoin migrate --advice … --write` printed. */
  readonly migrated: string;
  readonly workload: WorkloadSummary;
}

export interface AdviceReplay {
  readonly report: AdviceReport;
  /** What `docjoin advise --verbose` printed. */
  readonly printed: string;
  readonly recorded: WorkloadSummary;
  /** One per widen-, add- and drop-snapshot, add-counter and add-total advice given. */
  readonly replays: readonly Replayed[];
}

const MIGRATED_KINDS = new Set(['widen-snapshot', 'add-snapshot', 'drop-snapshot', 'add-counter', 'add-total']);

/**
 * The loop of issue 38, end to end: seed, record the workload through a gateway, `docjoin advise`
 * on it (at assumed costs and a given latency: the times of a shared test machine would tip close
 * changes either way);
 * then for each snapshot or counter change given, seed again, `docjoin migrate --advice … --write` a copy of
 * the project's schema, and record the same workload through a gateway serving the migrated schema.
 */
export async function adviseAndReplay(mongo: TestMongo, project: ReplayProject): Promise<AdviceReplay> {
  const folder = mkdtempSync(join(tmpdir(), 'docjoin-advise-replay-'));
  try {
    const db = mongo.freshDb('advise');
    await project.seed(db);
    const operations = await project.operations(db);
    const schemaFiles = readdirSync(project.schemaDir).filter((name) => name.endsWith('.graphql'));
    const texts = (dir: string) => schemaFiles.map((name) => readFileSync(join(dir, name), 'utf8'));
    const workloadFile = join(folder, 'recorded.jsonl');
    await record(mongo, project, db, texts(project.schemaDir), operations, workloadFile);

    const adviceFile = join(folder, 'advice.json');
    const advised = await cli(['advise', '--workload', workloadFile, '--mongo-uri', mongo.uri, '--db', db.databaseName, '--config', project.config, '--json', adviceFile, '--verbose', ...(project.costs === 'measured' ? [] : ['--assumed-costs']), '--latency-ms', String(project.latencyMs ?? 0)]);
    const report = (JSON.parse(readFileSync(adviceFile, 'utf8')) as { advice: AdviceReport }).advice;

    const replays: Replayed[] = [];
    for (const advice of report.fields.filter((field) => MIGRATED_KINDS.has(field.kind))) {
      const copy = mongo.freshDb('replay');
      await project.seed(copy);
      const projectDir = join(folder, advice.coordinate);
      cpSync(project.schemaDir, join(projectDir, 'schema'), { recursive: true });
      writeFileSync(join(projectDir, 'docjoin.config.json'), JSON.stringify({ schema: 'schema' }));
      const migrateArgs = ['migrate', '--advice', adviceFile, '--field', advice.coordinate, '--write', '--config', join(projectDir, 'docjoin.config.json'), '--mongo-uri', mongo.uri, '--db', copy.databaseName];
      // A drop first writes the SDL (and says to deploy it, then run again), then drops the copies.
      const migrated = advice.kind === 'drop-snapshot' ? (await cli(migrateArgs)) + (await cli(migrateArgs)) : await cli(migrateArgs);
      const replayFile = join(folder, `${advice.coordinate}.jsonl`);
      await record(mongo, project, copy, texts(join(projectDir, 'schema')), operations, replayFile);
      replays.push({ advice, migrated, workload: await readWorkload({ file: replayFile }) });
    }
    return { report, printed: advised, recorded: await readWorkload({ file: workloadFile }), replays };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Sends `operations` through a gateway serving `sdl` on `db`, recording the workload to `file`. */
async function record(mongo: TestMongo, project: ReplayProject, db: Db, sdl: readonly string[], operations: readonly ReplayedOperation[], file: string): Promise<void> {
  const client = await connectMongo(mongo.uri);
  try {
    const gateway = await createCheckedGateway({
      typeDefs: withDirectiveTypeDefs(sdl),
      resolvers: project.resolvers,
      writePlans: project.writePlans,
      ...(project.auth && { auth: project.auth }),
      mongoClient: client,
      db: db.databaseName,
      ...gatewaySettingsOf(loadConfig({ PORT: '0', DOCJOIN_WORKLOAD: `file:${file}` })),
      listen: false,
      onWarning: () => undefined,
    });
    try {
      for (const operation of operations) {
        const result = await gateway.execute({ query: operation.query, ...(operation.variables && { variables: operation.variables }) }, project.viewer ? { viewer: project.viewer } : {});
        if (result.errors) throw new Error(`${operation.query}: ${JSON.stringify(result.errors)}`);
      }
    } finally {
      await gateway.stop();
    }
  } finally {
    await client.close();
  }
}

/** `docjoin …` in-process; its output, or an error with what it said when it exits with another code than `expected`. */
async function cli(argv: readonly string[], expected: readonly number[] = [0]): Promise<string> {
  const { io, out, err } = captureIo();
  const code = await runDocjoinCli(argv, {}, io);
  if (!expected.includes(code)) throw new Error(`docjoin ${argv[0]} exited ${code}: ${err()}${out()}`);
  return out();
}

/**
 * Each replayed change against its prediction, per 1,000 mutations (printed, `project` naming it): the
 * change in documents written within 10% of the change measured (a replay that changes nothing fails),
 * and the mutation round trips exact, as they follow from the write rules alone (the prediction is
 * rounded to 0.1 per 1,000), whether the change moves them or not.
 */
export function expectPredictedWrites(replay: AdviceReplay, project: string): void {
  const before = mutationRates(replay.recorded);
  for (const { advice, workload } of replay.replays) {
    const measured = mutationRates(workload);
    const predicted = { documentsWritten: advice.effect.documentsWrittenPer1000Mutations!.after, roundTrips: advice.effect.mutationRoundTripsPer1000Mutations!.after };
    process.stdout.write(
      `advise ${advice.coordinate} on the ${project}: per 1,000 mutations, documents written ${before.documentsWritten.toFixed(1)} before, ${predicted.documentsWritten} predicted, ` +
        `${measured.documentsWritten.toFixed(1)} measured; round trips ${before.roundTrips.toFixed(1)} before, ${predicted.roundTrips} predicted, ${measured.roundTrips.toFixed(1)} measured\n`,
    );
    const change = { predicted: predicted.documentsWritten - before.documentsWritten, measured: measured.documentsWritten - before.documentsWritten };
    expect(change.measured).not.toBe(0);
    expect(Math.abs(change.predicted - change.measured)).toBeLessThanOrEqual(0.1 * Math.abs(change.measured));
    expect(Math.abs(predicted.roundTrips - measured.roundTrips)).toBeLessThanOrEqual(0.05);
  }
}

/** Per 1,000 mutations of `workload`: the documents they modified and the round trips they sent. */
function mutationRates(workload: WorkloadSummary): { documentsWritten: number; roundTrips: number } {
  const mutations = workload.operations.mutation.count;
  const documents = workload.mutations.reduce((sum, mutation) => sum + mutation.documentsModified, 0);
  return { documentsWritten: (documents / mutations) * 1000, roundTrips: (workload.operations.mutation.roundTrips / mutations) * 1000 };
}
