import { Long, MongoClient, MongoServerError, type CommandStartedEvent, type Collection, type Db, type Document } from 'mongodb';
import { startTestMongo, type TestMongo } from '../../../support/test-mongo';

/**
 * One MongoDB (embedded, or the real one at MONGODB_URI) and one fresh database per test file.
 * Call at the top level of a test file; read `.mongo` / `.db` inside tests.
 */
export function useCompatDatabase(prefix = 'compat'): { readonly mongo: TestMongo; readonly db: Db } {
  let mongo: TestMongo | undefined;
  let db: Db | undefined;
  beforeAll(async () => {
    mongo = await startTestMongo();
    db = mongo.freshDb(prefix);
  });
  afterAll(async () => {
    await mongo?.stop();
  });
  return {
    get mongo() {
      if (!mongo) throw new Error('useCompatDatabase: the server has not started (beforeAll failed?)');
      return mongo;
    },
    get db() {
      if (!db) throw new Error('useCompatDatabase: the server has not started (beforeAll failed?)');
      return db;
    },
  };
}

/** Awaits `operation`, expects it to fail with a server error carrying `code`, and returns that error. */
export async function expectServerError(
  operation: Promise<unknown>,
  code: number,
  codeName?: string,
): Promise<MongoServerError> {
  let outcome: unknown;
  try {
    outcome = await operation;
  } catch (error) {
    if (!(error instanceof MongoServerError)) throw error;
    expect({ code: error.code, codeName: codeName === undefined ? undefined : error.codeName }).toEqual({
      code,
      codeName,
    });
    return error;
  }
  throw new Error(`expected a server error with code ${code}, but the operation succeeded with ${JSON.stringify(outcome)}`);
}

/** A cursor id as MongoDB sends it (int64), whatever the driver promoted it to. */
export function asCursorId(id: unknown): Long {
  if (Long.isLong(id)) return id;
  if (typeof id === 'number') return Long.fromNumber(id);
  if (typeof id === 'bigint') return Long.fromBigInt(id);
  throw new Error(`not a cursor id: ${String(id)}`);
}

/**
 * A second client with command monitoring on, so a test can count exactly which commands
 * (find, getMore, ...) the driver sent for one operation.
 */
export interface CommandRecorder {
  readonly client: MongoClient;
  /** Started events for commands on `databaseName` (handshakes and admin chatter excluded). */
  started(commandName: string): CommandStartedEvent[];
  reset(): void;
  close(): Promise<void>;
}

export async function recordCommands(uri: string, databaseName: string): Promise<CommandRecorder> {
  const client = new MongoClient(uri, { monitorCommands: true });
  let events: CommandStartedEvent[] = [];
  client.on('commandStarted', (event) => {
    if (event.databaseName === databaseName) events.push(event);
  });
  await client.connect();
  return {
    client,
    started: (commandName) => events.filter((event) => event.commandName === commandName),
    reset: () => {
      events = [];
    },
    close: () => client.close(),
  };
}

/**
 * The BSON type name MongoDB itself reports for `field` of each document (aggregation `$type`),
 * keyed by `_id`. This is the most driver-independent way to see how a value is stored.
 */
export async function storedTypes(collection: Collection, field: string): Promise<Record<string, string>> {
  const rows = await collection
    .aggregate<Document>([{ $project: { t: { $type: `$${field}` } } }, { $sort: { _id: 1 } }])
    .toArray();
  return Object.fromEntries(rows.map((row) => [String(row._id), String(row.t)]));
}

/** `_id`s of documents matching `filter`, sorted ascending, for compact assertions. */
export async function idsOf(collection: Collection, filter: Document = {}): Promise<unknown[]> {
  const rows = await collection.find(filter, { projection: { _id: 1 } }).sort({ _id: 1 }).toArray();
  return rows.map((row) => row._id);
}

/** Transactions need a replica set; a real standalone MongoDB has no `setName`. */
export async function replicaSetName(db: Db): Promise<string | undefined> {
  const hello = await db.admin().command({ hello: 1 });
  return typeof hello.setName === 'string' ? hello.setName : undefined;
}

/**
 * For test files with transaction tests. Call at the top level, after the server is started in an
 * earlier `beforeAll`; `skipWithoutReplicaSet()` then returns true (printing why) when MONGODB_URI is a
 * standalone MongoDB, so the test can return early. The embedded server must advertise "docjoin",
 * so it never takes the skip path.
 */
export function useReplicaSetGuard(server: () => { readonly db: Db; readonly isEmbedded: boolean }): { skipWithoutReplicaSet(): boolean } {
  let transactionsSupported = false;
  beforeAll(async () => {
    const { db, isEmbedded } = server();
    const setName = await replicaSetName(db);
    if (isEmbedded) expect(setName).toBe('docjoin');
    transactionsSupported = setName !== undefined;
  });
  return {
    skipWithoutReplicaSet() {
      if (transactionsSupported) return false;
      console.warn('skipped: MONGODB_URI is a standalone MongoDB (hello has no setName); transactions need a replica set');
      return true;
    },
  };
}

/** Host and port of a single-host `mongodb://` URI, for raw-socket tests; undefined for anything else (SRV, several hosts). */
export function singleHostAddress(uri: string): { host: string; port: number } | undefined {
  const match = /^mongodb:\/\/(?:[^@/]*@)?([^,/:?]+)(?::(\d+))?(?:[/?]|$)/.exec(uri);
  if (!match) return undefined;
  return { host: match[1]!, port: match[2] ? Number(match[2]) : 27017 };
}
