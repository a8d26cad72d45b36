import { withDirectiveTypeDefs } from '../../../src/gateway/startup/schema/schema-sources';
import { buildWriteModelFromSdl } from '../../../src/gateway/startup/write-model/build-write-model';
import { backfillCopies, reconcileBackfill } from '../../../src/migrate/backfill-copies';
import { runDocjoinCli } from '../../../src/cli/docjoin';
import { captureIo } from '../../unit/cli/capture-io';
import { migrateProjects } from '../migrate/migrate-project';
import { insertBooksCopyingAuthors, WIDENED_BOOKS_SDL } from '../migrate/books-copying-authors';
import { resolve } from 'node:path';

const SHOP_CONFIG = resolve(__dirname, '../../../examples/shop/docjoin.config.ts');

/**
 * While a widened snapshot's backfill runs, a copy lacking a selected field is joined, and the
 * gateway's estimate counts that join. `explain --run` plans before reading the database, so its
 * table assumes the copies are filled; the measured line gives the estimate the gateway made and
 * checked as it ran, and says why the two differ.
 */
const WIDENED = WIDENED_BOOKS_SDL;
const projects = migrateProjects();

it('explain --run gives the estimate the gateway made while a widened snapshot is backfilled, and why the plan\'s differs', async () => {
  const { db, args } = await projects.create(WIDENED, insertBooksCopyingAuthors);
  // A widen backfill killed after its first batch: the marker is unfinished.
  const backfill = reconcileBackfill('Book.authors', 'snapshot-backfill', buildWriteModelFromSdl(withDirectiveTypeDefs(WIDENED)), ['Book.authors'], ['thumbnailUrl']);
  await expect(backfillCopies(db, backfill, { batchSize: 2, onBatch: () => { throw new Error('killed'); } })).rejects.toThrow('killed');

  const query = '{ books { title authors { name thumbnailUrl } } }';
  const served = await projects.read(db, WIDENED, query);
  expect(served.errors).toBeUndefined();
  expect([served.cost?.roundTrips, served.cost?.estimatedRoundTrips]).toEqual([2, 2]);

  const { io, out, err } = captureIo();
  const code = await runDocjoinCli(['explain', query, '--run', ...args], {}, io);
  const printed = out();
  expect([code, err().split('\n').filter((line) => !line.startsWith('explain: ') && line !== '')]).toEqual([0, []]);
  expect(printed).toContain('estimated before execution 1 round trip,');
  expect(printed).toContain(
    '2 round trips (estimated 2 as it ran; the plan above, made before reading the database, estimated 1: a copy, counter or total still being backfilled is read by its join)',
  );
  expect(printed).not.toContain('ESTIMATE EXCEEDED');
});

it('explain --run of an operation refused before execution blames no backfill for its estimate of 0', async () => {
  // The shop's anonymous role may not read orders: the root aggregate is refused before it runs.
  const { io, out } = captureIo();
  const code = await runDocjoinCli(['explain', '{ ordersAggregate { count sum { total } } }', '--run', '--config', SHOP_CONFIG], {}, io);
  const printed = out();
  expect(code).toBe(1);
  expect(printed).toContain('error: [FORBIDDEN]');
  expect(printed).toContain('0 round trips (refused before it ran),');
  expect(printed).not.toContain('backfilled');
});
