import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db, MongoClient } from 'mongodb';
import { connectMongo } from 'docjoin';
import { runDocjoinCli } from '../../../src/cli/docjoin';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { captureIo } from '../../unit/cli/capture-io';
import { createCheckedGateway } from '../../support/checked-gateway';

/** A project folder with one schema file, a fresh database seeded by `seed`, and the flags that point `docjoin migrate` at both. */
export interface MigrateProject {
  readonly db: Db;
  readonly folder: string;
  readonly schemaFile: string;
  readonly args: string[];
}

/**
 * Makes projects in temp folders on one MongoDB for the file, and serves their schemas to see what a
 * gateway answers. The MongoDB starts before the file's tests and everything ends after them (the
 * hooks are registered by this call).
 */
export function migrateProjects(): MigrateProjects {
  const projects = new MigrateProjects();
  beforeAll(() => projects.start(), 60_000);
  afterAll(() => projects.stop());
  return projects;
}

export class MigrateProjects {
  readonly #folders: string[] = [];
  #mongo: TestMongo | undefined;
  #client: MongoClient | undefined;

  async start(): Promise<void> {
    this.#mongo = await startTestMongo();
  }

  /** The MongoDB's URI (as `docjoin migrate` prints it, redacted). */
  get uri(): string {
    return this.#started().uri;
  }

  async create(sdl: string, seed: (db: Db) => Promise<void>): Promise<MigrateProject> {
    const db = this.#started().freshDb('migrate');
    await seed(db);
    const folder = mkdtempSync(join(tmpdir(), 'docjoin-migrate-'));
    this.#folders.push(folder);
    mkdirSync(join(folder, 'schema'));
    const schemaFile = join(folder, 'schema', 'schema.graphql');
    writeFileSync(schemaFile, sdl);
    writeFileSync(join(folder, 'docjoin.config.json'), JSON.stringify({ schema: 'schema' }));
    return { db, folder, schemaFile, args: ['--config', join(folder, 'docjoin.config.json'), '--mongo-uri', this.uri, '--db', db.databaseName] };
  }

  /** What a gateway serving `sdl` on `db` answers to `query`, with its cost (one gateway per call). */
  async read(db: Db, sdl: string, query: string) {
    this.#client ??= await connectMongo(this.uri);
    const gateway = await createCheckedGateway({ typeDefs: sdl, db: db.databaseName, mongoClient: this.#client, listen: false, onWarning: () => undefined });
    try {
      return await gateway.execute({ query });
    } finally {
      await gateway.stop();
    }
  }

  async stop(): Promise<void> {
    for (const folder of this.#folders.splice(0)) rmSync(folder, { recursive: true, force: true });
    await this.#client?.close();
    await this.#mongo?.stop();
  }

  #started(): TestMongo {
    if (!this.#mongo) throw new Error('MigrateProjects used before its MongoDB started (call migrateProjects() at the top of the file)');
    return this.#mongo;
  }
}

/** `docjoin migrate …` in-process: its exit code and what it printed. */
export async function migrate(argv: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const { io, out, err } = captureIo();
  const code = await runDocjoinCli(['migrate', ...argv], {}, io);
  return { code, out: out(), err: err() };
}
