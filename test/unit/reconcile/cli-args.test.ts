import { parseReconcileArgs } from '../../../src/reconcile/cli-args';

const NO_PROJECT = { configPath: undefined, schemaPaths: undefined };

const URI = 'mongodb://localhost:27017';

describe('parseReconcileArgs', () => {
  it('defaults: report only, batches of 500; the MongoDB is left to the environment and the config file', () => {
    expect(parseReconcileArgs([], { MONGODB_URI: URI })).toEqual({ kind: 'reconcile', fix: false, mongoUri: undefined, db: undefined, batchSize: 500, settleMs: 1000, project: NO_PROJECT });
  });

  it('reads every flag, with or without =', () => {
    expect(parseReconcileArgs(['--fix', '--mongo-uri', URI, '--db=shop', '--batch-size', '50', '--settle-ms', '0', '--config', 'shop/docjoin.config.mjs'], {})).toEqual({
      kind: 'reconcile', fix: true, mongoUri: URI, db: 'shop', batchSize: 50, settleMs: 0, project: { configPath: 'shop/docjoin.config.mjs', schemaPaths: undefined },
    });
  });

  it('help wins', () => {
    expect(parseReconcileArgs(['--bogus', '-h'], {})).toEqual({ kind: 'help' });
  });

  it.each([
    [['--bogus'], 'unknown option --bogus (try --help)'],
    [['fix'], 'unexpected argument "fix" (options are --fix, --mongo-uri, --db, --batch-size, --settle-ms, --config, --schema; try --help)'],
    [['--batch-size', '0'], '--batch-size must be an integer from 1 to 100000, got "0"'],
    [['--batch-size'], '--batch-size needs a value, e.g. --batch-size 500'],
    [['--settle-ms', '-5'], '--settle-ms must be an integer from 0 to 600000, got "-5"'],
    [['--fix=yes'], '--fix takes no value'],
    [['--db', 'a.b'], '--db must be a MongoDB database name (1 to 63 characters, none of /\\. "$*<>:|?), got "a.b"'],
    [['--mongo-uri', 'http://x'], '--mongo-uri must start with mongodb:// or mongodb+srv://, got "http://x"'],
  ])('%j is a one-line usage error', (argv, message) => {
    expect(parseReconcileArgs(argv, { MONGODB_URI: URI })).toEqual({ kind: 'usage-error', message });
  });
});
