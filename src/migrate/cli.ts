import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Db } from 'mongodb';
import { answerWithoutRunning } from '../cli/args/answer-without-running';
import { clientForCommand } from '../cli/args/mongo-target';
import { loadProjectTarget } from '../cli/args/project-flags';
import type { OutputStream } from '../cli/cli-io';
import { createProgressLine } from '../cli/progress-line';
import { ConfigError, loadConfig, redactSecrets } from '../config';
import { StorageConfigError } from '../gateway/errors/internal-errors';
import { withDirectiveTypeDefs } from '../gateway/schema/schema-sources';
import { buildWriteModelFromSdl } from '../gateway/writes/build-write-model';
import type { SnapshotLocation, WriteModel } from '../gateway/writes/write-model-types';
import { ProjectConfigError, type Project } from '../project/load-project';
import { reconcile } from '../reconcile/reconcile';
import type { ReconcileProgress } from '../reconcile/reconcile-types';
import { readAdvice, AdviceFileError } from './read-advice';
import { backfillSnapshot } from './backfill-snapshot';
import { dropSnapshotCopies, type DroppedSnapshot } from './drop-snapshot-copies';
import { formatSdlDiff } from './format-sdl-diff';
import { MIGRATE_USAGE, parseMigrateArgs, type MigrateCliCommand } from './migrate-args';
import { migrationsCollection } from './migration-marker';
import { dropSnapshotSdl, SdlChangeError, widenSnapshotSdl, type SchemaFile } from './snapshot-sdl-change';

type Io = { out: OutputStream; err: OutputStream };
type Migrate = Extract<MigrateCliCommand, { kind: 'migrate' }>;

/** What to do once connected, decided (and the SDL change printed) before connecting. */
type Work =
  | { kind: 'backfill'; coordinate: string; requested: readonly string[]; added: readonly string[]; locations: readonly SnapshotLocation[]; model: WriteModel }
  | { kind: 'drop'; dropped: DroppedSnapshot };

export const NO_MONGO_MESSAGE = "No MongoDB to migrate: pass --mongo-uri URI, set MONGODB_URI or the config's mongodb.uri.";

/** `docjoin migrate …` (see MIGRATE_USAGE); returns the exit code. */
export async function runMigrateCli(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, io: Io): Promise<number> {
  const command = parseMigrateArgs(argv, env);
  if (command.kind !== 'migrate') return answerWithoutRunning('migrate', command, MIGRATE_USAGE, io);
  let planned: { uri: string; db: string; work: Work };
  try {
    const project = await loadProjectTarget(command.project);
    const work = planSchemaChange(command, project, io);
    if (typeof work === 'string') {
      io.err.write(`migrate: ${work}\n`);
      return 2;
    }
    const config = loadConfig(env, { mongoUri: command.mongoUri, db: command.db }, project.config);
    if (config.mongodbUri === undefined) throw new ConfigError(NO_MONGO_MESSAGE);
    planned = { uri: config.mongodbUri, db: config.mongodbDb, work };
  } catch (error) {
    if (!(error instanceof ConfigError || error instanceof ProjectConfigError || error instanceof StorageConfigError || error instanceof SdlChangeError || error instanceof AdviceFileError)) throw error;
    io.err.write(`migrate: ${error.message.replace(/\n\s*/g, ' ')}\n`);
    return 2;
  }
  return run(command, planned, io);
}

/**
 * Computes the SDL change, checks the schema after it with the startup check, prints it (and writes it
 * with --write). Returns the work left for the database, or the one-line reason to refuse.
 */
function planSchemaChange(command: Migrate, project: Project, io: Io): Work | string {
  const request = command.request.kind === 'advice' ? readAdvice(command.request.file, command.request.coordinate) : command.request;
  const { coordinate } = request;
  const files: SchemaFile[] = project.schemaFiles.map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  const change = request.kind === 'widen' ? widenSnapshotSdl(files, coordinate, request.fields) : dropSnapshotSdl(files, coordinate);
  const before = files.find((source) => source.file === change.file)!.text;
  const model = buildWriteModelFromSdl(withDirectiveTypeDefs(files.map((source) => (source.file === change.file ? change.text : source.text))));
  const shown = relative(project.root, change.file) || change.file;
  const diff = formatSdlDiff(shown, before, change.text);
  if (diff === '') {
    io.out.write(request.kind === 'widen' ? `${shown}: ${coordinate} already copies ${request.fields.join(', ')}; no SDL change\n` : `${shown}: ${coordinate} declares no @snapshot; no SDL change\n`);
  } else {
    io.out.write(diff);
    if (command.write) writeFileSync(change.file, change.text);
    io.out.write(command.write ? `wrote ${shown}\n` : `(not written: pass --write to apply it)\n`);
  }

  if (request.kind === 'drop-snapshot') {
    // The copies go only once the loaded schema (what is deployed) stops reading them.
    if (diff !== '') return `${coordinate} still declares @snapshot in ${shown}; apply the SDL change${command.write ? '' : ' (--write)'}, deploy it, then run this again to drop the copied fields`;
    return { kind: 'drop', dropped: droppedSnapshot(model, coordinate) };
  }
  const relation = model.storageMap.relations.get(coordinate)!;
  const targetFields = model.storageMap.types.get(relation.targetType)?.fields;
  // The key (`id`) is never copied as a field: the copies keep it already.
  const requested = request.fields.filter((name) => {
    const field = targetFields?.get(name);
    return field?.kind === 'stored' && !field.isId;
  });
  const added = requested.filter((name) => !change.fieldsBefore.includes(name));
  return { kind: 'backfill', coordinate, requested, added, locations: snapshotLocations(model, coordinate), model };
}

/** The snapshot's locations: its own, and its copies inside embedded copies of its type (same field, same target, same fields). */
function snapshotLocations(model: WriteModel, coordinate: string): SnapshotLocation[] {
  const own = model.snapshots.find((location) => location.coordinate === coordinate);
  const relation = model.storageMap.relations.get(coordinate)!;
  const names = (location: SnapshotLocation) => location.fields.map((field) => field.name).join(',');
  return model.snapshots.filter(
    (location) =>
      location === own ||
      (location.sourceType === relation.targetType &&
        location.coordinate.split('.').length > 2 &&
        location.coordinate.endsWith(`.${relation.fieldName}`) &&
        (own === undefined || names(location) === names(own))),
  );
}

/** Where the copies are, from the join that serves the field once the snapshot is gone: `@join(localField: "authors.id")`. */
function droppedSnapshot(model: WriteModel, coordinate: string): DroppedSnapshot {
  const relation = model.storageMap.relations.get(coordinate);
  if (!relation) throw new SdlChangeError(`${coordinate} is not a relation field of the schema`);
  const collection = model.storageMap.types.get(relation.typeName)?.collection;
  const localField = relation.shapes.join?.localField;
  const parts = localField?.split('.') ?? [];
  if (collection === undefined || parts.length !== 2) {
    throw new SdlChangeError(`${coordinate}: cannot tell where its copies are: it needs @collection on ${relation.typeName} and a @join(localField: "path.key") inside them`);
  }
  return { coordinate, collection, path: parts[0]!, key: parts[1]! };
}

async function run(command: Migrate, target: { uri: string; db: string; work: Work }, io: Io): Promise<number> {
  const where = `${target.db} on ${redactSecrets(target.uri)}`;
  const client = clientForCommand(target.uri);
  const line = createProgressLine(io.out);
  const onProgress = ({ kind, coordinate, scanned, total }: ReconcileProgress) => line.show(`${kind} ${coordinate} ${count(scanned)} / ${count(total)}`, scanned === total);
  const { work } = target;
  const coordinate = work.kind === 'backfill' ? work.coordinate : work.dropped.coordinate;
  try {
    await client.connect();
    const db = client.db(target.db);
    if (work.kind === 'drop') {
      io.out.write(`dropping ${coordinate}'s copied fields in ${where}, batches of ${count(command.batchSize)}…\n`);
      const report = await dropSnapshotCopies(db, work.dropped, { batchSize: command.batchSize, onProgress });
      line.finish();
      io.out.write(`dropped ${coordinate}'s copied fields: ${count(report.scanned)} scanned, ${count(report.fixed)} rewritten\n`);
      return 0;
    }
    const fields = work.added.length > 0 ? work.added : await pendingFields(db, work);
    io.out.write(`backfilling ${coordinate} (${fields.join(', ')}) in ${where}, batches of ${count(command.batchSize)}…\n`);
    const result = await backfillSnapshot(db, { coordinate, fields, locations: work.locations }, { batchSize: command.batchSize, onProgress });
    line.finish();
    if (result.resumedAfter !== undefined) io.out.write(`resumed after _id ${String(result.resumedAfter)}\n`);
    for (const report of result.reports) io.out.write(`backfilled ${report.coordinate}: ${count(report.scanned)} scanned, ${count(report.fixed)} rewritten\n`);
    const check = await reconcile(db, { ...work.model, snapshots: work.locations, boundedArrays: [], inverses: [], counters: [] }, { batchSize: command.batchSize });
    for (const report of check.checks) io.out.write(`reconcile ${report.coordinate}: ${count(report.scanned)} scanned, ${count(report.drifted)} drifted\n`);
    if (check.drifted > 0) {
      io.err.write(`migrate: ${count(check.drifted)} documents drifted during the backfill (writes of a gateway on the old schema?); deploy the schema change, then run docjoin reconcile --fix\n`);
      return 3;
    }
    return 0;
  } catch (error) {
    line.finish();
    const reason = error instanceof Error ? error.message : String(error);
    io.err.write(`migrate: ${work.kind === 'drop' ? 'dropping' : 'backfilling'} ${coordinate} in ${where} failed: ${reason.split('\n')[0]}\n`);
    return 1;
  } finally {
    await client.close();
  }
}

/**
 * The fields to backfill when the schema already copies every requested one (a rerun after --write):
 * those of an unfinished marker the schema copies now, so the run resumes; else the requested ones.
 */
async function pendingFields(db: Db, work: Extract<Work, { kind: 'backfill' }>): Promise<readonly string[]> {
  const marker = await migrationsCollection(db).findOne({ _id: work.coordinate });
  const copied = new Set(work.locations.flatMap((location) => location.fields.map((field) => field.name)));
  if (marker && marker.finishedAt === undefined && marker.fields.every((name) => copied.has(name))) return marker.fields;
  return work.requested;
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}
