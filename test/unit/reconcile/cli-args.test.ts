import { NO_MONGO_MESSAGE, parseReconcileArgs } from '../../../src/reconcile/cli-args';

const URI = 'mongodb://localhost:27017';

describe('parseReconcileArgs', () => {
  it('defaults: report only, $MONGODB_URI, docjoin, batches of 500', () => {
    expect(parseReconcileArgs([], { MONGODB_URI: URI })).toEqual({ kind: 'reconcile', fix: false, mongoUri: URI, dbName: 'docjoin', batchSize: 500 });
  });

  it('reads every flag, with or without =', () => {
    expect(parseReconcileArgs(['--fix', '--mongo-uri', URI, '--db=shop', '--batch-size', '50'], {})).toEqual({ kind: 'reconcile', fix: true, mongoUri: URI, dbName: 'shop', batchSize: 50 });
    expect(parseReconcileArgs(['--db', 'x'], { MONGODB_URI: URI, MONGODB_DB: 'ignored' })).toMatchObject({ dbName: 'x' });
  });

  it('help wins', () => {
    expect(parseReconcileArgs(['--bogus', '-h'], {})).toEqual({ kind: 'help' });
  });

  it('explains a missing MongoDB', () => {
    expect(parseReconcileArgs(['--fix'], {})).toEqual({ kind: 'usage-error', message: NO_MONGO_MESSAGE });
  });

  it.each([
    [['--bogus'], 'unknown option --bogus (try --help)'],
    [['fix'], 'unexpected argument "fix" (options are --fix, --mongo-uri, --db, --batch-size; try --help)'],
    [['--batch-size', '0'], '--batch-size must be an integer from 1 to 100000, got "0"'],
    [['--batch-size'], '--batch-size needs a value, e.g. --batch-size 500'],
    [['--fix=yes'], '--fix takes no value'],
    [['--db', 'a.b'], '--db must be a MongoDB database name (1 to 63 characters, none of /\\. "$*<>:|?), got "a.b"'],
    [['--mongo-uri', 'http://x'], '--mongo-uri must start with mongodb:// or mongodb+srv://, got "http://x"'],
  ])('%j is a one-line usage error', (argv, message) => {
    expect(parseReconcileArgs(argv, { MONGODB_URI: URI })).toEqual({ kind: 'usage-error', message });
  });
});
