import { join } from 'node:path';
import { MongoClient } from 'mongodb';
import { checkDraft } from '../../infer-schema/check-draft';
import type { DraftCounts } from '../../infer-schema/draft-schema';
import { inferSchema } from '../../infer-schema/infer-schema';
import type { CollectionSample } from '../../infer-schema/sample-database';
import { redactSecrets } from '../../observability/redact-secrets';
import { firstLineOf, MongoUnreachableError } from '../../server/mongo-unreachable-error';
import { serverSelectionTimeout } from '../../settings/setting-rules';
import type { CliIo } from '../../command-line/cli-io';
import { configKeepsUri, draftedConfigFile } from './drafted-project-template';
import type { InitCliCommand } from './init-args';
import { installLine, nextSteps, refuseToWrite, writeProjectFiles } from './project-files';

const CONFIG_PATH = 'docjoin.config.mjs';
const SCHEMA_PATH = join('schema', 'schema.graphql');

/**
 * `docjoin init --from-mongo URI [--db NAME] [--sample N] [folder]`: samples the database, drafts its
 * schema (src/infer-schema), writes it with a config for that database, then runs docjoin's startup
 * check on the draft. Exit 0 when written and passing, 1 when the database cannot be read or has no
 * collections (nothing written) or the written draft fails the check, 2 when a file it would write exists.
 */
export async function runInitFromMongo(command: Extract<InitCliCommand, { kind: 'from-mongo' }>, io: CliIo): Promise<number> {
  if (refuseToWrite(command.folder, [CONFIG_PATH, SCHEMA_PATH], io)) return 2;
  const redactedUri = redactSecrets(command.mongoUri, [command.mongoUri]);
  const where = `database "${command.dbName}" on ${redactedUri}`;
  io.out.write(`sampling ${where}, up to ${command.sampleSize} documents per collection…\n`);
  // Fails within seconds when unreachable, as every command does; command monitoring for the startup check.
  const client = new MongoClient(command.mongoUri, { ...serverSelectionTimeout(command.mongoUri), monitorCommands: true });
  try {
    try {
      await client.connect();
    } catch (error) {
      io.err.write(`init: ${new MongoUnreachableError(redactedUri, redactSecrets(firstLineOf(error), [command.mongoUri])).message}\n`);
      return 1;
    }
    let inferred: Awaited<ReturnType<typeof inferSchema>>;
    try {
      inferred = await inferSchema(client.db(command.dbName), { sampleSize: command.sampleSize, onCollection: (sample) => io.out.write(describeSample(sample)) });
    } catch (error) {
      io.err.write(`init: drafting from ${where} failed: ${redactSecrets(firstLineOf(error), [command.mongoUri])}\n`);
      return 1;
    }
    if (inferred.collections.length === 0) {
      io.err.write(`init: ${where} has no collections to draft a schema from${await otherDatabases(client, command.dbName)}\n`);
      return 1;
    }
    const config = draftedConfigFile({ dbName: command.dbName, mongoUri: command.mongoUri });
    const serveCommand = writeProjectFiles(command.folder, [[CONFIG_PATH, config], [SCHEMA_PATH, inferred.sdl]], io, (path) => (path === SCHEMA_PATH ? ` (${describeCounts(inferred.draft.counts)})` : ''));
    let check: Awaited<ReturnType<typeof checkDraft>>;
    try {
      check = await checkDraft(inferred.sdl, client, command.dbName);
    } catch (error) {
      io.err.write(`init: checking the draft against ${where} failed: ${redactSecrets(firstLineOf(error), [command.mongoUri])}\n`);
      return 1;
    }
    for (const warning of check.warnings) io.err.write(`init: warning: ${redactSecrets(warning, [command.mongoUri])}\n`);
    if (check.problems.length > 0) {
      for (const problem of check.problems) io.err.write(`init: the draft fails docjoin's startup check: ${redactSecrets(problem, [command.mongoUri])}\n`);
      io.err.write(`init: fix ${SCHEMA_PATH} by hand (it is written), or report the draft that failed\n`);
      return 1;
    }
    io.out.write(`checked: docjoin's startup check passes on the draft against ${where}\n`);
    const start = configKeepsUri(command.mongoUri) ? serveCommand : `MONGODB_URI='…' ${serveCommand}`;
    const install = installLine(command.folder);
    io.out.write(nextSteps(command.folder, [`check each "# guess:" in ${SCHEMA_PATH}, then delete it`, install, `${start.padEnd(27)}# serves ${where}; GraphQL at http://localhost:4000/graphql`]));
    return 0;
  } finally {
    await client.close();
  }
}

function describeSample(sample: CollectionSample): string {
  const how = sample.method === '$sample' ? '$sample' : `find in _id order: the server refused $sample: ${sample.sampleFailure ?? 'no reason given'}`;
  return `  ${sample.name}: ${sample.documents.length} of ~${sample.estimatedCount} documents (${how})\n`;
}

function describeCounts(counts: DraftCounts): string {
  const plural = (n: number, word: string, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;
  return [
    `${plural(counts.collectionTypes, 'collection type')}, ${plural(counts.embeddedTypes, 'embedded type')}`,
    `${plural(counts.joins, 'join')}, ${plural(counts.snapshots, 'snapshot')}, ${plural(counts.reverseJoins, 'reverse join')}`,
    `${plural(counts.guesses, 'guess', 'guesses')} to check`,
  ].join('; ');
}

/** `; this server has: a, b` when the server lists its other databases (a wrong --db is the likely mistake). */
async function otherDatabases(client: MongoClient, dbName: string): Promise<string> {
  try {
    const { databases } = await client.db('admin').admin().listDatabases({ nameOnly: true });
    const others = databases.map((database) => database.name).filter((name) => name !== dbName && !['admin', 'config', 'local'].includes(name));
    return others.length > 0 ? `; this server has: ${others.join(', ')}` : '';
  } catch {
    return '';
  }
}
