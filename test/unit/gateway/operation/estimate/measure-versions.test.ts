import { CollectionSizes, type SizeSource } from '../../../../../src/gateway/operation/estimate/collection-sizes';
import { CopyBackfills, SNAPSHOT_BACKFILL, type MigrationSource } from '../../../../../src/gateway/operation/estimate/copy-backfills';
import { buildStorageMap } from '../../../../../src/gateway/startup/storage-map/build-storage-map';
import { demoSchema } from '../../support/demo-schema';

/** The estimate cache keys on these versions: each must change exactly when a measure the estimate reads does. */
const storageMap = buildStorageMap(demoSchema());

describe('CollectionSizes.version', () => {
  it('changes when a count or a longest array changes, and only then', async () => {
    let count = 10;
    let longest = 3;
    const source: SizeSource = {
      estimatedDocumentCount: () => Promise.resolve(count),
      aggregateStatistics: () => Promise.resolve([{ _id: null, longest }]),
    };
    const sizes = new CollectionSizes(storageMap, source);
    await sizes.countSizes();
    await sizes.measureArrays();
    const measured = sizes.version;
    await sizes.countSizes();
    await sizes.measureArrays();
    expect(sizes.version).toBe(measured);
    count = 11;
    await sizes.countSizes();
    const recounted = sizes.version;
    expect(recounted).toBeGreaterThan(measured);
    longest = 4;
    await sizes.measureArrays();
    expect(sizes.version).toBeGreaterThan(recounted);
  });
});

describe('CopyBackfills.version', () => {
  it('changes when the running backfills change, and only then', async () => {
    let markers: Array<Record<string, unknown>> = [];
    const source: MigrationSource = { readMetadata: () => Promise.resolve(markers) };
    const backfills = new CopyBackfills(storageMap, { counters: [], totals: [] }, source);
    await backfills.refresh();
    const none = backfills.version;
    markers = [{ _id: 'Book.authors', kind: SNAPSHOT_BACKFILL }];
    await backfills.refresh();
    const running = backfills.version;
    expect(running).toBeGreaterThan(none);
    expect(backfills.backfilling('Book.authors')).toBe(true);
    await backfills.refresh();
    expect(backfills.version).toBe(running);
    markers = [{ _id: 'Book.authors', kind: SNAPSHOT_BACKFILL, finishedAt: new Date() }];
    await backfills.refresh();
    expect(backfills.version).toBeGreaterThan(running);
    expect(backfills.backfilling('Book.authors')).toBe(false);
  });
});
