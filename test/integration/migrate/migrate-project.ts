import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Db, MongoClient } from 'mongodb';
import { connectMongo, createGateway } from 'docjoin';
import { runDocjoinCli } from '../../../src/cli/docjoin';
import type { TestMongo } from '../../support/test-mongo';
import { captureIo } from '../../unit/cli/capture-io';

/** A project folder with one schema file, a fresh database seeded by `seed`, and the flags that point `docjoin migrate` at both. */
export interface MigrateProject {
  readonly db: Db;
  readonly folder: string;
  readonly schemaFile: string;
  readonly args: string[];
}

/** Makes projects in temp folders, and serves their schemas to see what a gateway answers; `close` removes and closes it all. */
export class MigrateProjects {
  readonly #folders: string[] = [];
  #client: MongoClient | undefined;

  constructor(private readonly mongo: TestMongo) {}

  async create(sdl: string, seed: (db: Db) => Promise<void>): Promise<MigrateProject> {
    const db = this.mongo.freshDb('migrate');
    await seed(db);
    const folder = mkdtempSync(join(tmpdir(), 'docjoin-migrate-'));
    this.#folders.push(folder);
    mkdirSync(join(folder, 'schema'));
    const schemaFile = join(folder, 'schema', 'schema.graphql');
    writeFileSync(schemaFile, sdl);
    writeFileSync(join(folder, 'docjoin.config.json'), JSON.stringify({ schema: 'schema' }));
    return { db, folder, schemaFile, args: ['--config', join(folder, 'docjoin.config.json'), '--mongo-uri', this.mongo.uri, '--db', db.databaseName] };
  }

  /** What a gateway serving `sdl` on `db` answers to `query`, with its cost (one gateway per call). */
  async read(db: Db, sdl: string, query: string) {
    this.#client ??= await connectMongo(this.mongo.uri);
    const gateway = await createGateway({ typeDefs: sdl, db: db.databaseName, mongoClient: this.#client, listen: false, onWarning: () => undefined });
    try {
      return await gateway.execute({ query });
    } finally {
      await gateway.stop();
    }
  }

  async close(): Promise<void> {
    for (const folder of this.#folders.splice(0)) rmSync(folder, { recursive: true, force: true });
    await this.#client?.close();
  }
}

/** `docjoin migrate …` in-process: its exit code and what it printed. */
export async function migrate(argv: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const { io, out, err } = captureIo();
  const code = await runDocjoinCli(['migrate', ...argv], {}, io);
  return { code, out: out(), err: err() };
}
