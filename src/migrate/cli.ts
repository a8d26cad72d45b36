import { readFileSync, writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Db, Document } from 'mongodb';
import { answerWithoutRunning } from '../command-line/answer-without-running';
import { clientForCommand } from '../command-line/mongo-target';
import { loadProjectTarget } from '../command-line/project-flags';
import type { OutputStream } from '../command-line/cli-io';
import { createProgressLine } from '../command-line/progress-line';
import { inspectCommandDatabase } from '../command-line/command-database';
import { ConfigError, loadConfig, redactSecrets } from '../config/config';
import { StorageConfigError, derivedOverViews, derivedValues, withDirectiveTypeDefs, buildGatewaySchema, buildWriteModelFromSdl, copyPathOf, pathsOverlap, quoteInput, storedPathsOf, sumType, type PathSegment, type SnapshotLocation, type WriteModel, COUNTER_BACKFILL, EMBEDDED_BACKFILL, SNAPSHOT_BACKFILL, TOTAL_BACKFILL } from '../gateway';
import { ProjectConfigError, type Project } from '../project/load-project';
import { everyCopyDangles, reconcileChecks } from '../reconcile/reconcile';
import type { DriftReport, ReconcileProgress } from '../reconcile/reconcile-types';
import { addSnapshotSdl } from '../schema-edits/add-snapshot-sdl';
import { backfillCopies, checkBackfill, previewBackfill, reconcileBackfill, requireBackfillCollections, restartBackfill, type CopyBackfill } from './backfill-copies';
import { addBoundedArraySdl, addCounterSdl, addTotalSdl } from '../schema-edits/derived-field-sdl';
import { readAdvice, AdviceFileError } from './read-advice';
import { arraysHolding, dropSnapshotCopies, rebuildArrays, type DroppedSnapshot } from './drop-snapshot-copies';
import { keptFieldsNote } from './kept-fields-note';
import { formatSdlDiff } from './format-sdl-diff';
import { DEPLOYED_GOES_WITH, DEPLOYED_KINDS, MIGRATE_USAGE, parseMigrateArgs, type MigrateCliCommand, type MigrationRequest } from './migrate-args';
import { migrationsCollection, MIGRATIONS_COLLECTION } from './migration-marker';
import { keyMoveCheck, movedKeyPaths } from '../reconcile/check-moved-key';
import { indexMovedKey } from './index-moved-key';
import { dropSnapshotSdl, findField, SdlChangeError, widenSnapshotSdl, type SchemaFile } from '../schema-edits/snapshot-sdl-change';
import { describePersonalFields } from '../advise/recommend/personal-data';
import { describeCustomWriters } from './custom-writers';
import { personalDataLine } from '../advise/format-advice';
import { configurationErrorText } from '../command-line/configuration-error-text';

type Io = { out: OutputStream; err: OutputStream };
type Migrate = Extract<MigrateCliCommand, { kind: 'migrate' }>;

/** What to do once connected, decided (and the SDL change printed) before connecting. */
type Work =
  /** Fill new fields into a snapshot's copies (widened, or added where its key already sits in them). */
  | { kind: 'widen'; coordinate: string; requested: readonly string[]; added: readonly string[]; model: WriteModel; copies: readonly string[] }
  /** Fill a new derived field: a counter, a total or a bounded array. */
  | { kind: 'fill'; backfill: CopyBackfill }
  /** Add a snapshot to a plain join: the key moves into the copies; the SDL is written once they are all there. */
  | { kind: 'move-key'; coordinate: string; fields: readonly string[]; from: string | undefined; model: WriteModel; copyIsTruth: boolean; deferred: readonly SchemaFile[]; shown: string }
  | { kind: 'drop'; dropped: DroppedSnapshot };

/** Nothing for the database yet: the SDL change is written, and must be deployed before the data changes. */
interface DeployFirst {
  readonly kind: 'deploy-first';
  readonly next: string;
}

export const NO_MONGO_MESSAGE = "No MongoDB to migrate: pass --mongo-uri URI, set MONGODB_URI or the config's mongodb.uri.";

/** `docjoin migrate …` (see MIGRATE_USAGE); returns the exit code. */
export async function runMigrateCli(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, io: Io): Promise<number> {
  const command = parseMigrateArgs(argv, env);
  if (command.kind !== 'migrate') return answerWithoutRunning('migrate', command, MIGRATE_USAGE, io);
  let planned: { uri: string; db: string } & SchemaChange;
  let seeds = false;
  try {
    const project = await loadProjectTarget(command.project);
    const change = planSchemaChange(command, project, io);
    if (typeof change === 'string') {
      io.err.write(`migrate: ${change}\n`);
      return 2;
    }
    if ('next' in change) return 0;
    const config = loadConfig(env, { mongoUri: command.mongoUri, db: command.db }, project.config);
    if (config.mongodbUri === undefined) throw new ConfigError(NO_MONGO_MESSAGE);
    planned = { uri: config.mongodbUri, db: config.mongodbDb, ...change };
    seeds = project.config.seed !== undefined;
  } catch (error) {
    if (!(error instanceof ConfigError || error instanceof ProjectConfigError || error instanceof StorageConfigError || error instanceof SdlChangeError || error instanceof AdviceFileError)) throw error;
    io.err.write(`migrate: ${configurationErrorText(error)}\n`);
    return 2;
  }
  const code = await run(command, planned, io);
  const { work } = planned;
  const wroteSdl = planned.writeFirst.length > 0 || (work.kind === 'move-key' && work.deferred.length > 0);
  if (code === 0 && command.write && seeds && wroteSdl && work.kind !== 'drop') io.out.write(`${seedNote(work)}\n`);
  return code;
}

/**
 * The project's seed fills the embedded server, and may have been written for the schema before the
 * change: a start without a MongoDB URI would then read documents without what the change added.
 */
function seedNote(work: Exclude<Work, { kind: 'drop' }>): string {
  const what =
    work.kind === 'fill'
      ? `${work.backfill.coordinate} in each document`
      : work.kind === 'widen'
        ? `${work.added.join(', ')} in ${work.coordinate}'s copies`
        : `${work.coordinate}'s copies (${work.fields.join(', ')})`;
  return `seed: the config's seed fills the embedded server (docjoin serve with no MongoDB URI): make sure it writes ${what}, or that server starts on documents without it`;
}

/** The SDL change of a request: the files it changes, and what the database is left to do. */
interface Plan {
  readonly edits: readonly SchemaFile[];
  /** Printed when nothing changes, e.g. `Book.authors already copies thumbnailUrl`. */
  readonly unchanged: string;
  /** Write the edits with --write before touching the data (else after: a key move). */
  readonly writeFirst: boolean;
  readonly work: (model: WriteModel) => Work | DeployFirst | string;
}

/** A schema change planned: the work left for the database, and the SDL files to write before it. */
interface SchemaChange {
  readonly work: Work;
  /** The schema after the change. */
  readonly model: WriteModel;
  /** The derived values (copies, counters, totals, arrays) the schema declared before it, by coordinate. */
  readonly derivedBefore: ReadonlySet<string>;
  /** Written with --write once the database is checked (none when the SDL waits for the data, or nothing changes). */
  readonly writeFirst: readonly SchemaFile[];
  readonly shown: (file: string) => string;
}

/**
 * Computes the SDL change, checks the schema after it with the startup check and prints it. Returns
 * the change; or, when the data must wait for its deploy, writes it (with --write) and says so; or the
 * one-line reason to refuse.
 */
function planSchemaChange(command: Migrate, project: Project, io: Io): SchemaChange | DeployFirst | string {
  const request = command.request.kind === 'advice' ? readAdvice(command.request.file, command.request.coordinate) : command.request;
  if (command.deployed && !DEPLOYED_KINDS.has(request.kind)) return `${DEPLOYED_GOES_WITH}; the advice for ${command.request.coordinate} is ${request.kind}`;
  const files: SchemaFile[] = project.schemaFiles.map((file) => ({ file, text: readFileSync(file, 'utf8') }));
  const shown = (file: string) => relative(project.root, file) || file;
  const plan = planRequest(request, files, { write: command.write, shown });
  const typeDefsAfter = withDirectiveTypeDefs(files.map((source) => plan.edits.find((edit) => edit.file === source.file)?.text ?? source.text));
  // The whole startup check, with the project's resolvers and write plans: what serve would refuse after
  // the change (an input field that would set what the new field derives from) is refused before anything
  // is written. A root without a resolver is left alone: a project given by --schema has none loaded.
  buildGatewaySchema({ typeDefs: typeDefsAfter, resolvers: project.resolvers, writePlans: project.writePlans, rootResolversToCome: true });
  const model = buildWriteModelFromSdl(typeDefsAfter);
  const diffs = plan.edits.map((edit) => formatSdlDiff(shown(edit.file), files.find((source) => source.file === edit.file)!.text, edit.text)).filter((diff) => diff !== '');
  if (diffs.length === 0) {
    io.out.write(`${shown(plan.edits[0]?.file ?? files[0]!.file)}: ${plan.unchanged}; no SDL change\n`);
  } else {
    io.out.write(diffs.join(''));
    if (!plan.writeFirst) io.out.write(command.write ? `(written once every parent holds its copy)\n` : `(not written: pass --write to apply it once every parent holds its copy)\n`);
    else if (!command.write) io.out.write(`(not written: pass --write to apply it)\n`);
  }
  const work = plan.work(model);
  if (typeof work !== 'string' && (work.kind === 'widen' || work.kind === 'move-key')) {
    const added = work.kind === 'widen' ? work.added : work.fields.slice(1);
    for (const line of describeCustomWriters(project.writePlans, model, keyMoveLocations(model, work.coordinate), added)) io.out.write(`${line}\n`);
  }
  const writeFirst = command.write && plan.writeFirst && diffs.length > 0 ? plan.edits : [];
  if (typeof work === 'string') return work;
  if (work.kind === 'deploy-first') {
    writeSchemaFiles(writeFirst, shown, io);
    io.out.write(`${work.next}\n`);
    return work;
  }
  const derivedBefore = new Set(derivedValues(buildWriteModelFromSdl(project.typeDefs)).map((value) => value.coordinate));
  return { work, model, derivedBefore, writeFirst, shown };
}

function writeSchemaFiles(edits: readonly SchemaFile[], shown: (file: string) => string, io: Io): void {
  if (edits.length === 0) return;
  for (const edit of edits) writeFileSync(edit.file, edit.text);
  io.out.write(`wrote ${edits.map((edit) => shown(edit.file)).join(', ')}\n`);
}

function planRequest(request: Exclude<MigrationRequest, { kind: 'advice' }>, files: readonly SchemaFile[], options: { write: boolean; shown: (file: string) => string }): Plan {
  const { coordinate } = request;
  switch (request.kind) {
    case 'widen': {
      const change = widenSnapshotSdl(files, coordinate, request.fields);
      return {
        edits: [change],
        unchanged: `${coordinate} already copies ${request.fields.join(', ')}`,
        writeFirst: true,
        work: (model) => widenWork(model, coordinate, request.fields, change.fieldsBefore),
      };
    }
    case 'drop-snapshot': {
      const change = dropSnapshotSdl(files, coordinate);
      return {
        edits: [change],
        unchanged: `${coordinate} declares no @snapshot`,
        writeFirst: true,
        // The copies go only once the loaded schema (what is deployed) stops reading them; where they are is
        // worked out from the schema without the snapshot first, so that nothing is written when the second step could not run.
        work: (model) => {
          const dropped = droppedSnapshot(model, coordinate);
          if (change.text === files.find((source) => source.file === change.file)!.text) return { kind: 'drop', dropped };
          return options.write
            ? { kind: 'deploy-first', next: `deploy it, then run this again to drop ${coordinate}'s copied fields` }
            : `${coordinate} still declares @snapshot in ${options.shown(change.file)}; apply the SDL change (--write), deploy it, then run this again to drop the copied fields`;
        },
      };
    }
    case 'add-counter':
    case 'add-total':
    case 'add-bounded-array': {
      const change =
        request.kind === 'add-counter'
          ? addCounterSdl(files, coordinate, request.of)
          : request.kind === 'add-total'
            ? addTotalSdl(files, coordinate, request.of, request.sum, totalType(files, request.of, request.sum))
            : addBoundedArraySdl(files, coordinate, request.of, request.limit);
      const kind = request.kind === 'add-counter' ? COUNTER_BACKFILL : request.kind === 'add-total' ? TOTAL_BACKFILL : EMBEDDED_BACKFILL;
      return {
        edits: [change],
        unchanged: `${coordinate} is already declared`,
        writeFirst: true,
        work: (model) => ({ kind: 'fill', backfill: reconcileBackfill(coordinate, kind, model, [coordinate]) }),
      };
    }
    case 'add-snapshot': {
      const before = buildWriteModelFromSdl(withDirectiveTypeDefs(files.map((source) => source.text)));
      const change = addSnapshotSdl(files, before.storageMap, coordinate, request.fields, request.path);
      const copiedBefore = change.existed ? (before.storageMap.relations.get(coordinate)!.shapes.snapshot?.fields ?? []) : ['id'];
      if (change.from === undefined && !change.existed) {
        // The key already sits in the copies: fill the fields beside it, as a widening does.
        return { edits: change.edits, unchanged: '', writeFirst: true, work: (model) => widenWork(model, coordinate, change.fields, copiedBefore) };
      }
      return {
        // Already declared: no edit, but the file to name is the one declaring the field.
        edits: change.existed ? [findField(files, coordinate).source] : change.edits,
        unchanged: `${coordinate} already declares @snapshot(path: "${change.path}")`,
        writeFirst: false,
        work: (model) => ({
          kind: 'move-key',
          coordinate,
          fields: change.fields,
          from: change.from,
          model,
          copyIsTruth: change.existed,
          deferred: change.edits,
          shown: change.edits.map((edit) => options.shown(edit.file)).join(', '),
        }),
      };
    }
    default: {
      const unhandled: never = request;
      throw new Error(`unhandled request ${JSON.stringify(unhandled)}`);
    }
  }
}

/** The type a `@total` of `sum` over `of` is declared with: its aggregate sum's (sumType). */
function totalType(files: readonly SchemaFile[], of: string, sum: string): string {
  const { storageMap } = buildWriteModelFromSdl(withDirectiveTypeDefs(files.map((source) => source.text)));
  const relation = storageMap.relations.get(of);
  const summed = relation && storageMap.types.get(relation.targetType)?.fields.get(sum);
  if (!relation || summed?.kind !== 'stored') throw new SdlChangeError(`${of} is no relation whose target stores a field ${sum}; --of names the list and --sum a stored number of its children`);
  return sumType(summed.valueType.name);
}

function widenWork(model: WriteModel, coordinate: string, fields: readonly string[], copiedBefore: readonly string[]): Work {
  const relation = model.storageMap.relations.get(coordinate)!;
  const targetFields = model.storageMap.types.get(relation.targetType)?.fields;
  // The key (`id`) is never copied as a field: the copies keep it already.
  const requested = fields.filter((name) => {
    const field = targetFields?.get(name);
    return field?.kind === 'stored' && !field.isId;
  });
  const added = requested.filter((name) => !copiedBefore.includes(name));
  return { kind: 'widen', coordinate, requested, added, model, copies: snapshotLocations(model, coordinate).map((location) => location.coordinate) };
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
    const where =
      collection === undefined
        ? `inside the documents of another type (${relation.typeName} has no @collection)`
        : parts.length > 2
          ? `at the nested path "${parts.slice(0, -1).join('.')}"`
          : `in a place no @join(localField: "path.key") names`;
    throw new SdlChangeError(
      `${coordinate}: --drop-snapshot drops copies kept at a top-level field of their type's own documents, and these are ${where}; nothing was written: with the @snapshot removed and deployed, $unset its copied fields with an update of your own`,
    );
  }
  const path = parts[0]!;
  // What another field serves there is the document's own data, not a copy this relation once kept.
  const parent = model.storageMap.types.get(relation.typeName)!;
  const other = [...parent.fields.keys()].find((name) => name !== relation.fieldName && storedPathsOf(parent, name).some((stored) => pathsOverlap(stored, path)));
  if (other !== undefined) {
    throw new SdlChangeError(`${coordinate}: "${path}" is read by ${relation.typeName}.${other}, so it holds that field's data, not copies of ${relation.targetType}; there is nothing to drop`);
  }
  // A copy kept the target's fields under their names: only those go, whatever else the documents hold there.
  const target = model.storageMap.types.get(relation.targetType);
  const copiedFields = target ? [...target.fields.keys()].filter((name) => name !== parts[1]) : [];
  return { coordinate, collection, path, key: parts[1]!, copiedFields, targetType: relation.targetType };
}

async function run(command: Migrate, target: { uri: string; db: string } & SchemaChange, io: Io): Promise<number> {
  const where = `${target.db} on ${redactSecrets(target.uri)}`;
  const client = clientForCommand(target.uri);
  const line = createProgressLine(io.out);
  const onProgress = ({ kind, coordinate, scanned, total }: ReconcileProgress) => line.show(`${kind} ${coordinate} ${count(scanned)} / ${count(total)}`, scanned === total);
  const { work } = target;
  const coordinate = work.kind === 'fill' ? work.backfill.coordinate : work.kind === 'drop' ? work.dropped.coordinate : work.coordinate;
  const dryRun = !command.write;
  try {
    await client.connect();
    const db = client.db(target.db);
    // A change on the wrong database would write the SDL and then find nothing to fill.
    const { wrongDatabase, views } = await inspectCommandDatabase(db, target.model.storageMap);
    if (wrongDatabase) {
      io.err.write(`migrate: ${wrongDatabase}; nothing was written\n`);
      return 2;
    }
    // A value the change derives from a view, or keeps in one: the gateway would refuse to start, or the
    // backfill would write the view. Refused before anything is written.
    const derived = derivedValues(target.model).filter((value) => !target.derivedBefore.has(value.coordinate));
    const [overView] = derivedOverViews(derived, views);
    if (overView) {
      io.err.write(`migrate: ${overView}; nothing was written\n`);
      return 2;
    }
    if (dryRun) io.out.write('dry run: nothing is written (--write applies the change)\n');
    if (work.kind === 'drop') {
      io.out.write(`${dryRun ? 'reading what dropping' : 'dropping'} ${coordinate}'s copied fields ${dryRun ? 'would change ' : ''}in ${where}, batches of ${count(command.batchSize)}…\n`);
      const { report, kept } = await dropSnapshotCopies(db, work.dropped, { batchSize: command.batchSize, fix: !dryRun, onProgress });
      line.finish();
      io.out.write(`${dryRun ? 'would drop' : 'dropped'} ${coordinate}'s copied fields: ${count(report.scanned)} scanned, ${count(dryRun ? report.drifted : report.fixed)} ${dryRun ? 'to rewrite' : 'rewritten'}\n`);
      if (kept.names.length > 0) io.out.write(`${keptFieldsNote(work.dropped, kept, dryRun)}\n`);
      const holder = coordinate.slice(0, coordinate.indexOf('.'));
      const arrays = arraysHolding(target.model, holder);
      if (dryRun) for (const array of arrays) io.out.write(`would then rebuild ${array.coordinate}, whose ${holder} documents hold the copies\n`);
      else {
        for (const rebuilt of await rebuildArrays(db, target.model, arrays, { batchSize: command.batchSize, onProgress })) {
          line.finish();
          io.out.write(`rebuilt ${rebuilt.coordinate}, whose ${holder} documents held the copies: ${count(rebuilt.scanned)} scanned, ${count(rebuilt.fixed)} rewritten\n`);
        }
      }
      return 0;
    }
    const backfill = await backfillOf(db, work);
    if (typeof backfill === 'string') {
      io.err.write(`migrate: ${backfill}\n`);
      return 2;
    }
    const occupied = work.kind === 'move-key' && !work.copyIsTruth ? await occupiedCopyPaths(db, work.coordinate, keyMoveLocations(work.model, work.coordinate)) : undefined;
    if (occupied) {
      io.err.write(`migrate: ${occupied}\n`);
      return 2;
    }
    // The SDL is written once the data can take the change: every collection it fills from is there.
    await requireBackfillCollections(db, backfill);
    writeSchemaFiles(target.writeFirst, target.shown, io);
    if (work.kind === 'move-key' && backfill.from !== undefined) {
      for (const { collection, key } of await indexMovedKeys(db, work.model, backfill, { create: !dryRun })) io.out.write(`${dryRun ? 'would create' : 'created'} index ${JSON.stringify(key)} on ${collection}\n`);
    }
    if (work.kind === 'widen' || work.kind === 'move-key') await tellPersonalData(db, work.model, work.coordinate, backfill, io);
    const filled = `${coordinate}${backfill.fields ? ` (${backfill.fields.join(', ')})` : ''}`;
    const batchesOf = `batches of ${count(command.batchSize)}…`;
    if (dryRun) {
      io.out.write(`reading what backfilling ${filled} would change in ${where}, ${batchesOf}\n`);
      const previews = await previewBackfill(db, backfill, { batchSize: command.batchSize, onProgress });
      line.finish();
      for (const report of previews) io.out.write(`would backfill ${report.coordinate}: ${count(report.scanned)} scanned, ${count(report.drifted)} to rewrite${danglingNote(report)} (${plural(batches(report.scanned, command.batchSize), 'batch', 'batches')})\n`);
      const noSource = copiesWithNoSource(previews, backfill);
      if (noSource) io.err.write(`migrate: ${noSource} With --write it would stop there${work.kind === 'move-key' ? ', before writing the SDL' : ''}.\n`);
      return noSource ? 1 : 0;
    }
    io.out.write(`backfilling ${filled} in ${where}, ${batchesOf}\n`);
    const result = await backfillCopies(db, backfill, { batchSize: command.batchSize, onProgress });
    line.finish();
    if (result.resumedAfter !== undefined) io.out.write(`resumed after _id ${String(result.resumedAfter)}\n`);
    if (result.finishedAt !== undefined) io.out.write(`${coordinate} was finished on ${result.finishedAt.toISOString()}: this pass repairs its copies, which gateways go on trusting\n`);
    for (const report of result.reports) io.out.write(`backfilled ${report.coordinate}: ${count(report.scanned)} scanned, ${count(report.fixed)} rewritten${danglingNote(report)}\n`);
    // A resumed run scanned only what the last one left: whether every key dangles is read over every document.
    const scanned = result.resumedAfter === undefined ? result.reports : await previewBackfill(db, backfill, { batchSize: command.batchSize });
    const noSource = copiesWithNoSource(scanned, backfill);
    if (noSource) {
      await restartBackfill(db, backfill);
      io.err.write(`migrate: ${noSource} Stopped${work.kind === 'move-key' ? ' before writing the SDL' : ''}: the copies hold only their keys, and the next run scans every document again.\n`);
      return 1;
    }
    // A new counter, total or bounded array is trusted only after a clean pass once every gateway keeps it.
    const finish = work.kind !== 'fill' || command.deployed || result.finishedAt !== undefined;
    const checks = await checkBackfill(db, backfill, { batchSize: command.batchSize, finish });
    for (const report of checks) io.out.write(`reconcile ${report.coordinate}: ${count(report.scanned)} scanned, ${count(report.drifted)} drifted${danglingNote(report)}\n`);
    const drifted = checks.reduce((sum, report) => sum + report.drifted, 0);
    if (drifted > 0) {
      const next = work.kind === 'move-key' ? 'run this command again (the SDL change waits until none is left)' : 'deploy the schema change, then run this command again';
      io.err.write(`migrate: ${plural(drifted, 'document was', 'documents were')} written meanwhile by a gateway that does not keep the new copies (the old schema?); ${next}\n`);
      return 3;
    }
    if (!finish) io.out.write(`filled ${coordinate}; gateways still count, sum or join it: deploy the schema change, then run this again with --write --deployed\n`);
    if (work.kind === 'move-key' && work.deferred.length > 0) {
      for (const edit of work.deferred) writeFileSync(edit.file, edit.text);
      io.out.write(`wrote ${work.shown}: deploy it, then run this command again to give a copy to parents the old schema wrote meanwhile\n`);
    }
    return 0;
  } catch (error) {
    line.finish();
    const reason = error instanceof Error ? error.message : String(error);
    const doing = dryRun ? 'reading' : work.kind === 'drop' ? 'dropping' : 'backfilling';
    io.err.write(`migrate: ${doing} ${coordinate} in ${where} failed: ${reason.split('\n')[0]}\n`);
    return 1;
  } finally {
    await client.close();
  }
}

/** `, 3 dangling` when some of the report's copies point at no source document (reconcile reports them, never fixes them). */
function danglingNote(report: DriftReport): string {
  return report.dangling > 0 ? `, ${count(report.dangling)} dangling` : '';
}

/** What reconcile says of a snapshot whose every copy points at no source document, for the first such report. */
function copiesWithNoSource(reports: readonly DriftReport[], backfill: CopyBackfill): string | undefined {
  for (const report of reports) {
    const location = backfill.rules.snapshots.find((candidate) => candidate.coordinate === report.coordinate);
    const problem = location && everyCopyDangles(report, location);
    if (problem) return problem;
  }
  return undefined;
}

/** The batches of `batchSize` a scan of `documents` reads (each followed by at most one bulk write). */
function batches(documents: number, batchSize: number): number {
  return Math.ceil(documents / batchSize);
}

/** Names the fields a snapshot is about to copy that look like personal data, and how many documents get them. */
async function tellPersonalData(db: Db, model: WriteModel, coordinate: string, backfill: CopyBackfill, io: Io): Promise<void> {
  const targetType = model.storageMap.relations.get(coordinate)?.targetType;
  const collections = [...new Set(backfill.rules.snapshots.map((location) => location.collection))];
  const fields = targetType === undefined ? [] : describePersonalFields(targetType, backfill.fields ?? []);
  if (fields.length === 0 || collections.length === 0) return;
  const copiedInto = await Promise.all(collections.map(async (collection) => ({ collection, documents: await db.collection(collection).estimatedDocumentCount() })));
  io.out.write(`personal data: ${personalDataLine({ fields, copiedInto })}\n`);
}

/**
 * Before a key move's first pass (no marker yet), nothing may sit where its copies go: the backfill would
 * overwrite it. A later pass finds the copies the earlier ones wrote there, and rewrites them.
 */
async function occupiedCopyPaths(db: Db, coordinate: string, locations: readonly SnapshotLocation[]): Promise<string | undefined> {
  if (await migrationsCollection(db).findOne({ _id: coordinate })) return undefined;
  for (const location of locations) {
    const filter = holdsValueAt(location.segments);
    const top = location.segments[0]!.path;
    const held = await db.collection(location.collection).findOne(filter, { projection: { _id: 1, [top]: 1 } });
    if (!held) continue;
    const documents = await db.collection(location.collection).countDocuments(filter);
    const path = copyPathOf(location);
    return `${plural(documents, `${location.collection} document already keeps`, `${location.collection} documents already keep`)} a value at "${path}", where ${location.coordinate}'s copies would go (_id ${String(held._id)}: ${quoteInput(held[top])}); the backfill would overwrite it, so move that data, or give the snapshot another path (--path)`;
  }
  return undefined;
}

/** Documents holding a value (not null, not an empty list) at the end of `segments`: through an array, in any one element. */
function holdsValueAt(segments: readonly PathSegment[]): Document {
  const [first, ...rest] = segments;
  if (rest.length === 0) return { [first!.path]: { $exists: true, $nin: [null, []] } };
  const inner = holdsValueAt(rest);
  return first!.isArray ? { [first!.path]: { $elemMatch: inner } } : Object.fromEntries(Object.entries(inner).map(([path, condition]) => [`${first!.path}.${path}`, condition]));
}

/** The backfill the work asks for, with what only the database tells: the fields left to fill, the path a key moves from. */
async function backfillOf(db: Db, work: Exclude<Work, { kind: 'drop' }>): Promise<CopyBackfill | string> {
  switch (work.kind) {
    case 'fill':
      return work.backfill;
    case 'widen': {
      const fields = work.added.length > 0 ? work.added : await pendingFields(db, work);
      return reconcileBackfill(work.coordinate, SNAPSHOT_BACKFILL, work.model, work.copies, fields);
    }
    case 'move-key': {
      const marker = await migrationsCollection(db).findOne({ _id: work.coordinate });
      const from = work.from ?? marker?.from;
      if (from === undefined) return `${work.coordinate} already declares its @snapshot and no key move of it is recorded in ${MIGRATIONS_COLLECTION}; use --widen to copy more fields`;
      const locations = keyMoveLocations(work.model, work.coordinate);
      // Whole copies of the parents in other parents' bounded arrays take the new copy too.
      const collections = new Set(locations.map((location) => location.collection));
      const arrays = work.model.boundedArrays.filter((array) => collections.has(array.childCollection));
      const copies = new Set(arrays.map((array) => array.coordinate));
      const fields = work.fields.slice(1);
      return {
        coordinate: work.coordinate,
        kind: SNAPSHOT_BACKFILL,
        fields,
        from,
        rules: { snapshots: locations, boundedArrays: arrays, counters: [] },
        checks: (database) => [...locations.map((location) => keyMoveCheck(database, { location, from, copyIsTruth: work.copyIsTruth })), ...reconcileChecks(database, work.model).filter((check) => copies.has(check.coordinate))],
      };
    }
    default: {
      const unhandled: never = work;
      throw new Error(`unhandled work ${JSON.stringify(unhandled)}`);
    }
  }
}

/**
 * Where a snapshot added to a plain join puts its copies: the field's own location, or, for a field of an
 * embedded type (`OrderLine.product`), each place that type is embedded (`Order.lines.product`).
 */
function keyMoveLocations(model: WriteModel, coordinate: string): SnapshotLocation[] {
  const own = model.snapshots.find((location) => location.coordinate === coordinate);
  return own ? [own] : snapshotLocations(model, coordinate);
}

/** Indexes on the moved key for the reverse joins that now read it (`Publisher.books` on `publisher.id`). */
async function indexMovedKeys(db: Db, model: WriteModel, backfill: CopyBackfill, options: { create: boolean }): Promise<Array<{ collection: string; key: Document }>> {
  const created: Array<{ collection: string; key: Document }> = [];
  for (const location of backfill.rules.snapshots) {
    const { from, to } = movedKeyPaths({ location, from: backfill.from! });
    const readers = [...model.storageMap.relations.values()].some((field) => field.shapes.join?.direction === 'byReference' && field.shapes.join.collection === location.collection && field.shapes.join.foreignField === to);
    if (!readers) continue;
    for (const key of await indexMovedKey(db, location.collection, from, to, options)) created.push({ collection: location.collection, key });
  }
  return created;
}

/**
 * The fields to backfill when the schema already copies every requested one (a rerun after --write):
 * those of an unfinished marker the schema copies now, so the run resumes; else the requested ones.
 */
async function pendingFields(db: Db, work: Extract<Work, { kind: 'widen' }>): Promise<readonly string[]> {
  const marker = await migrationsCollection(db).findOne({ _id: work.coordinate });
  const copied = new Set(work.model.snapshots.filter((location) => work.copies.includes(location.coordinate)).flatMap((location) => location.fields.map((field) => field.name)));
  if (marker && marker.kind === SNAPSHOT_BACKFILL && marker.finishedAt === undefined && marker.fields !== undefined && marker.fields.every((name) => copied.has(name))) return marker.fields;
  return work.requested;
}

function plural(value: number, one: string, many: string): string {
  return `${count(value)} ${value === 1 ? one : many}`;
}

function count(value: number): string {
  return value.toLocaleString('en-US');
}
