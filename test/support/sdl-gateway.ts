import type { Db, MongoClient } from 'mongodb';
import { connectMongo, type CreateGatewayOptions, type Gateway, type Viewer } from 'docjoin';
import { startTestMongo, type TestMongo } from './test-mongo';
import { createCheckedGateway } from './checked-gateway';

/** A gateway over a test file's own SDL, on a fresh database of the test MongoDB. */
export interface SdlGateway {
  readonly mongo: TestMongo;
  /** The gateway's client (command monitoring on); `mongo.client` is a plain one for the test's own reads. */
  readonly client: MongoClient;
  readonly db: Db;
  readonly gateway: Gateway;
  stop(): Promise<void>;
}

/**
 * Starts the test MongoDB, makes a fresh database named after `dbPrefix`, lets `prepare` create its
 * collections, indexes and documents, then starts a gateway on it (no HTTP listener) with `options`.
 */
export async function startSdlGateway(options: {
  readonly typeDefs: CreateGatewayOptions['typeDefs'];
  readonly dbPrefix: string;
  readonly prepare?: (db: Db) => Promise<void>;
  readonly gateway?: Omit<CreateGatewayOptions, 'typeDefs' | 'mongoClient' | 'db' | 'listen'>;
}): Promise<SdlGateway> {
  const mongo = await startTestMongo();
  let client: MongoClient | undefined;
  try {
    const db = mongo.freshDb(options.dbPrefix);
    await options.prepare?.(db);
    client = await connectMongo(mongo.uri);
    const gateway = await createCheckedGateway({ ...options.gateway, typeDefs: options.typeDefs, mongoClient: client, db: db.databaseName, listen: false });
    const started = client;
    return {
      mongo,
      client: started,
      db,
      gateway,
      async stop() {
        await gateway.stop();
        await started.close();
        await mongo.stop();
      },
    };
  } catch (error) {
    await client?.close();
    await mongo.stop();
    throw error;
  }
}

/**
 * Whether a gateway starts over `typeDefs` and a fresh database holding the empty `collections` (or
 * what `prepare` made): 'started', or the refusal's message.
 */
export async function startupOutcome(typeDefs: string, dbPrefix: string, collections: readonly string[] | ((db: Db) => Promise<void>)): Promise<string> {
  const prepare = typeof collections === 'function' ? collections : async (fresh: Db) => void (await Promise.all(collections.map((name) => fresh.createCollection(name))));
  let started: SdlGateway | undefined;
  try {
    started = await startSdlGateway({ dbPrefix, typeDefs, prepare });
    return 'started';
  } catch (error) {
    return (error as Error).message;
  } finally {
    await started?.stop();
  }
}

/** What `viewer` gets for `query`: the data, or each error as [code, message]. */
export async function answerAs(subject: SdlGateway, query: string, viewer: Viewer): Promise<unknown> {
  const result = await subject.gateway.execute({ query }, { viewer });
  return result.errors ? result.errors.map((error) => [error.extensions?.code, error.message]) : result.data;
}

/** A refusal as answerAs gives it. */
export function forbidden(message: string): unknown {
  return [['FORBIDDEN', message]];
}
