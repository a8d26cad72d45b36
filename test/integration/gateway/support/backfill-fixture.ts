import type { Db } from 'mongodb';
import { createGateway, type Gateway } from 'docjoin';
import { MIGRATIONS_COLLECTION } from '../../../../src/gateway/operation/estimate/copy-backfills';
import { mongoForFile } from '../../../support/test-mongo';
import { createCheckedGateway } from '../../../support/checked-gateway';

/** What a backfill test file works with: fresh databases, the migration markers in them, and gateways serving its SDL. */
export interface BackfillFixture {
  freshDb(prefix: string): Db;
  /** Inserts `docjoin migrate`'s markers, as it writes them, into `db`. */
  addMarkers(db: Db, markers: readonly object[]): Promise<void>;
  /** `onWarning` hears the startup's warnings (none by default). */
  serve(db: Db, onWarning?: (message: string) => void): Promise<Gateway>;
  /**
   * The same without the estimate's self-check: for data the estimate takes on trust and that breaks it
   * (copies missing while no marker says a backfill runs: answered right, by the join, at a cost the
   * estimate did not count).
   */
  serveUnchecked(db: Db): Promise<Gateway>;
}

/** One MongoDB and one client for the file (its beforeAll/afterAll are registered by this call). */
export function backfillFixture(sdl: string): BackfillFixture {
  const file = mongoForFile();
  return {
    freshDb: (prefix) => file.mongo.freshDb(prefix),
    async addMarkers(db, markers) {
      if (markers.length > 0) await db.collection(MIGRATIONS_COLLECTION).insertMany(markers.map((marker) => ({ ...marker })));
    },
    serve: (db, onWarning = () => undefined) => createCheckedGateway({ typeDefs: sdl, db: db.databaseName, mongoClient: file.client, listen: false, onWarning }),
    serveUnchecked: (db) => createGateway({ typeDefs: sdl, db: db.databaseName, mongoClient: file.client, listen: false, onWarning: () => undefined }),
  };
}
