import { MongoClient } from 'mongodb';
import { dbNameRule, DEFAULT_DB_NAME, isProblem, mongoUriRule, nonEmpty, serverSelectionTimeout } from '../settings/setting-rules';
import { usageError, type ParsedArgs, type UsageError } from './parse-flags';

/** The `--mongo-uri` and `--db` flags every command that talks to a MongoDB of yours accepts. */
export const MONGO_TARGET_FLAGS = [
  { name: '--mongo-uri', example: 'mongodb://localhost:27017' },
  { name: '--db', example: DEFAULT_DB_NAME },
] as const;

export interface MongoTarget {
  /** Undefined when neither `--mongo-uri` nor MONGODB_URI is given. */
  readonly mongoUri: string | undefined;
  readonly dbName: string;
}

/** Flags first, then MONGODB_URI / MONGODB_DB (blank counts as unset), then the default database name. */
export function readMongoTarget(args: ParsedArgs, env: Readonly<Record<string, string | undefined>>): MongoTarget | UsageError {
  const uriFlag = args.values.get('--mongo-uri');
  const mongoUri = uriFlag ?? nonEmpty(env.MONGODB_URI);
  const dbName = args.values.get('--db') ?? nonEmpty(env.MONGODB_DB) ?? DEFAULT_DB_NAME;
  const db = dbNameRule(dbName, args.values.has('--db') ? '--db' : 'MONGODB_DB');
  if (isProblem(db)) return usageError(db.problem);
  if (mongoUri !== undefined) {
    const uri = mongoUriRule(mongoUri, uriFlag !== undefined ? '--mongo-uri' : 'MONGODB_URI');
    if (isProblem(uri)) return usageError(uri.problem);
  }
  return { mongoUri, dbName };
}

/** A client for a one-off command: it fails within seconds on an unreachable server (the driver waits 30 s), unless the URI says otherwise. */
export function clientForCommand(uri: string): MongoClient {
  return new MongoClient(uri, serverSelectionTimeout(uri));
}
