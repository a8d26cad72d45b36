import { makeExecutableSchema } from '@graphql-tools/schema';
import type { MongoClient } from 'mongodb';
import { DatabaseMismatchError, StorageConfigError, MongoFunnel, withDirectiveTypeDefs, buildStorageMap, validateAgainstDatabase } from '../gateway';

export interface DraftCheck {
  /** What would stop `docjoin serve` on this draft: each names `Type.field` and the fix. */
  readonly problems: readonly string[];
  /** What it would warn about, and start anyway. */
  readonly warnings: readonly string[];
}

/**
 * The checks `docjoin serve` runs at startup, on a draft: its directives (buildStorageMap), then the
 * database (validateAgainstDatabase: collections, indexes, paths, a sample of documents). `client` must
 * have been created with `{ monitorCommands: true }`, as the gateway's is.
 */
export async function checkDraft(sdl: string, client: MongoClient, dbName: string): Promise<DraftCheck> {
  let storageMap;
  try {
    storageMap = buildStorageMap(makeExecutableSchema({ typeDefs: withDirectiveTypeDefs(sdl) }));
  } catch (error) {
    if (error instanceof StorageConfigError) return { problems: error.problems, warnings: [] };
    throw error;
  }
  const funnel = new MongoFunnel(client, client.db(dbName));
  try {
    return { problems: [], warnings: await validateAgainstDatabase(storageMap, funnel) };
  } catch (error) {
    if (error instanceof DatabaseMismatchError) return { problems: error.problems, warnings: [] };
    throw error;
  } finally {
    funnel.detach();
  }
}
