import type { Db } from 'mongodb';
import { collectionListingOf, noneOfTheCollections, type StorageMap, type CollectionListing } from '../gateway';

/** What a command learns of the database it was pointed at before it reads or writes anything. */
export interface CommandDatabase {
  readonly collections: ReadonlySet<string>;
  /** The views among them, each with what it is a view on. */
  readonly views: CollectionListing['views'];
  /** Why the command would work on nothing: the database holds none of the schema's collections. */
  readonly wrongDatabase: string | undefined;
}

export async function inspectCommandDatabase(db: Db, storageMap: StorageMap): Promise<CommandDatabase> {
  const { names: collections, views } = collectionListingOf(await db.listCollections({}).toArray());
  const wrongDatabase = await noneOfTheCollections(storageMap, collections, {
    databaseName: db.databaseName,
    // None named when the user may not list them.
    listDatabaseNames: () => db.admin().listDatabases({ nameOnly: true }).then(({ databases }) => databases.map((database) => database.name), () => []),
  });
  return { collections, views, wrongDatabase };
}
