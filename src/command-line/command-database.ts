import type { Db } from 'mongodb';
import { noneOfTheCollections, type StorageMap } from '../gateway';

/** What a command learns of the database it was pointed at before it reads or writes anything. */
export interface CommandDatabase {
  readonly collections: ReadonlySet<string>;
  /** Why the command would work on nothing: the database holds none of the schema's collections. */
  readonly wrongDatabase: string | undefined;
}

export async function inspectCommandDatabase(db: Db, storageMap: StorageMap): Promise<CommandDatabase> {
  const collections = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((collection) => collection.name));
  const wrongDatabase = await noneOfTheCollections(storageMap, collections, {
    databaseName: db.databaseName,
    // None named when the user may not list them.
    listDatabaseNames: () => db.admin().listDatabases({ nameOnly: true }).then(({ databases }) => databases.map((database) => database.name), () => []),
  });
  return { collections, wrongDatabase };
}
