import { existsSync, readFileSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { answerWithoutRunning } from '../command-line/answer-without-running';
import { clientForCommand } from '../command-line/mongo-target';
import { inspectCommandDatabase } from '../command-line/command-database';
import { loadProjectTarget } from '../command-line/project-flags';
import type { CliIo } from '../command-line/cli-io';
import { ConfigError, loadConfig, redactSecrets } from '../config/config';
import { StorageConfigError, buildWriteModelFromSdl, type WriteModel, readWorkload, type WorkloadSource, type WorkloadOption, type WorkloadSummary } from '../gateway';
import { ProjectConfigError } from '../project/load-project';
import { ADVISE_USAGE, parseAdviseArgs, type AdviseCliCommand, type WorkloadFlag } from './cli-args';
import { formatAdvice } from './format-advice';
import { recommend } from './recommend/recommend';
import { collectDataStatistics } from './statistics/collect-data-statistics';
import type { WriteSides } from './recommend/write-effect';
import { refusingViews, writeSidesOf } from './write-sides';
import { measureNetwork } from './measure-network';
import { lookupTargets, probeLookupCosts } from './probe-lookup-costs';
import { ASSUMED_COSTS } from './recommend/command-costs';
import type { ShardKeys } from '../sharding/shard-targeting';
import { shardKeysProblem } from '../sharding/check-shard-keys';
import { configurationErrorText } from '../command-line/configuration-error-text';

type AdviseCommand = Extract<AdviseCliCommand, { kind: 'advise' }>;

interface AdviseTarget {
  readonly uri: string;
  readonly db: string;
  readonly model: WriteModel;
  /** The write rules before and after each change, to price its writes; why not, when the project's schema does not build. */
  readonly writeSides: WriteSides | string;
  /** The cluster's shard keys (`mongodb.shardKeys`). */
  readonly shardKeys: ShardKeys;
  /** Where the workload was recorded; undefined: advice from the data alone. */
  readonly workload: { file: string } | { collection: string } | undefined;
}

const NO_MONGO_MESSAGE = "No MongoDB to advise on: pass --mongo-uri URI, set MONGODB_URI or the config's mongodb.uri.";

/** `docjoin advise …`; returns the exit code. */
export async function runAdviseCli(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, io: CliIo): Promise<number> {
  const command = parseAdviseArgs(argv, env);
  if (command.kind !== 'advise') return answerWithoutRunning('advise', command, ADVISE_USAGE, io);
  // Checked before sampling, which can take minutes: advice that cannot be written is not worth reading.
  if (command.json !== undefined && !existsSync(dirname(resolve(command.json)))) {
    io.err.write(`advise: --json ${command.json}: its folder ${dirname(resolve(command.json))} does not exist\n`);
    return 2;
  }
  let target: AdviseTarget;
  try {
    const project = await loadProjectTarget(command.project);
    const config = loadConfig(env, { mongoUri: command.mongoUri, db: command.db }, project.config);
    if (config.mongodbUri === undefined) throw new ConfigError(NO_MONGO_MESSAGE);
    const files = project.schemaFiles.map((file) => ({ file, text: readFileSync(file, 'utf8') }));
    const writeSides = writeSidesOf({ files, resolvers: project.resolvers, writePlans: project.writePlans });
    const model = buildWriteModelFromSdl(project.typeDefs);
    const shardKeys = shardKeysProblem(project.shardKeys, model.storageMap);
    if (shardKeys) throw new ProjectConfigError(shardKeys);
    target = { uri: config.mongodbUri, db: config.mongodbDb, model, writeSides, shardKeys: project.shardKeys, workload: workloadOf(command.workload, config.workload) };
  } catch (error) {
    if (!(error instanceof ConfigError || error instanceof ProjectConfigError || error instanceof StorageConfigError)) throw error;
    io.err.write(`advise: ${configurationErrorText(error)}\n`);
    return 2;
  }
  return run(command, target, io);
}

function workloadOf(flag: WorkloadFlag, configured: WorkloadOption): AdviseTarget['workload'] {
  if (flag !== 'config') return flag;
  if (configured === false) return undefined;
  return 'file' in configured ? { file: configured.file } : { collection: configured.collection };
}

async function run(command: AdviseCommand, target: AdviseTarget, io: CliIo): Promise<number> {
  const where = `${target.db} on ${redactSecrets(target.uri)}`;
  const file = target.workload && 'file' in target.workload ? target.workload.file : undefined;
  const unreadable = file === undefined ? undefined : fileProblem(file);
  if (unreadable) {
    io.err.write(`advise: cannot read the workload file ${file} (${unreadable})\n`);
    return 1;
  }
  const client = clientForCommand(target.uri);
  try {
    await client.connect();
    const db = client.db(target.db);
    // Advice on a database holding none of the schema's collections would be advice on nothing.
    const { collections: existing, views, wrongDatabase } = await inspectCommandDatabase(db, target.model.storageMap);
    if (wrongDatabase) {
      io.err.write(`advise: ${wrongDatabase}\n`);
      return 1;
    }
    if (target.workload && 'collection' in target.workload && !existing.has(target.workload.collection)) {
      const recordings = [...existing].filter((name) => name.toLowerCase().includes('workload'));
      io.err.write(`advise: ${where} has no collection "${target.workload.collection}" to read a recorded workload from${recordings.length > 0 ? ` (it has ${recordings.map((name) => `"${name}"`).join(', ')})` : ''}; name the collection the gateway's workload option records to\n`);
      return 1;
    }
    const source: WorkloadSource | undefined = target.workload && ('file' in target.workload ? target.workload : { collection: target.workload.collection, db });
    const workload = source ? await readWorkload(source) : undefined;
    if (workload && workload.windows === 0) {
      io.err.write(`advise: the workload in ${file ?? (target.workload as { collection: string }).collection} holds no window yet: the gateway records one per flush interval of its workload option; serve traffic with it on first, or turn it off (no --workload, DOCJOIN_WORKLOAD=off) for advice from the data alone\n`);
      return 1;
    }
    const strangers = workload ? fieldsNotInSchema(workload, target.model) : [];
    if (strangers.length > 0) {
      const named = strangers.slice(0, MAX_NAMED_FIELDS).join(', ') + (strangers.length > MAX_NAMED_FIELDS ? ` and ${strangers.length - MAX_NAMED_FIELDS} more` : '');
      io.err.write(`advise: the workload reads ${strangers.length} field(s) this schema has no relation or aggregate field for (${named}): it was recorded against another schema, or before a change to this one; their reads are left out of the advice\n`);
    }
    const statistics = await collectDataStatistics(db, target.model, { sampleSize: command.sampleSize, ...(workload && { workload }) });
    if (typeof target.writeSides === 'string' && workload && workload.operations.mutation.count > 0) {
      io.err.write(`advise: the recorded mutations cannot be replayed to price snapshot changes, so none is given: ${target.writeSides}\n`);
    }
    const network = await measureNetwork(db, command.latencyMs);
    // Lookups are priced only on a recorded workload, with a latency to save.
    const probe = workload !== undefined && network.latencyMs > 0 && !command.assumedCosts;
    const lookupCosts = probe ? await probeLookupCosts(db, lookupTargets(target.model.storageMap)).catch((error: unknown) => probeRefused(error, io)) : undefined;
    const report = recommend({
      storageMap: target.model.storageMap,
      statistics,
      ...(workload && { workload }),
      ...(typeof target.writeSides !== 'string' && { writeSides: refusingViews(target.writeSides, views) }),
      shardKeys: target.shardKeys,
      assumedCosts: command.assumedCosts,
      readsOnly: command.readsOnly,
      network,
      lookupCosts,
    });
    io.out.write(formatAdvice(report, heading(where, command.sampleSize, workload, target.workload), { verbose: command.verbose }));
    if (command.json !== undefined) await writeFile(command.json, `${JSON.stringify({ advice: report, statistics, workload: workload ?? null }, null, 2)}\n`);
    return 0;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    io.err.write(`advise: advising on ${where} failed: ${reason.split('\n')[0]}\n`);
    return 1;
  } finally {
    await client.close();
  }
}

/** Why `path` is no file to read (`ENOENT`, `EISDIR`), or undefined when it is one. */
function fileProblem(path: string): string | undefined {
  try {
    return statSync(path).isFile() ? undefined : 'EISDIR';
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  }
}

/** Fields a warning names before it counts the rest. */
const MAX_NAMED_FIELDS = 5;

/** The recorded fields the schema has no relation or aggregate field for, sorted: advice reads a field's workload by its coordinate. */
function fieldsNotInSchema(workload: WorkloadSummary, model: WriteModel): string[] {
  const { relations, aggregates } = model.storageMap;
  return [...new Set(workload.fields.map((entry) => entry.field))].filter((coordinate) => !relations.has(coordinate) && !aggregates.has(coordinate)).sort();
}

function probeRefused(error: unknown, io: CliIo): undefined {
  const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  io.err.write(`advise: could not time a lookup on the server (${reason}): a copy is priced at the recorded reads' time per document, a parent at ${ASSUMED_COSTS.lookupParentMs} ms\n`);
  return undefined;
}

function heading(where: string, sampleSize: number, workload: WorkloadSummary | undefined, source: AdviseTarget['workload']): string {
  const recorded = !source
    ? 'no workload recorded (set the gateway\'s "workload" option, or pass --workload): advice from the data alone'
    : `workload from ${'file' in source ? source.file : `collection ${source.collection}`}: ${workload?.operations.query.count ?? 0} queries and ${workload?.operations.mutation.count ?? 0} mutations in ${workload?.windows ?? 0} window(s)`;
  return `Advice for ${where} (up to ${sampleSize.toLocaleString('en')} documents sampled per collection; ${recorded})`;
}
