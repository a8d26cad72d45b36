import { DEFAULT_DB_NAME, MAX_SCALE, NO_MONGO_MESSAGE, parseSeedArgs } from '../../../src/seed/cli-args';

const URI = 'mongodb://localhost:27017';
const withUri = { MONGODB_URI: URI };

describe('parseSeedArgs', () => {
  test('defaults: scale 1, MONGODB_URI, database "docjoin"', () => {
    expect(parseSeedArgs([], withUri)).toEqual({ kind: 'seed', scale: 1, mongoUri: URI, dbName: DEFAULT_DB_NAME });
  });

  test('reads --scale, --mongo-uri and --db, with a space or an =', () => {
    expect(parseSeedArgs(['--scale', '3', '--mongo-uri', 'mongodb://db:27018', '--db', 'demo'], {})).toEqual({
      kind: 'seed', scale: 3, mongoUri: 'mongodb://db:27018', dbName: 'demo',
    });
    expect(parseSeedArgs(['--scale=0.5', '--mongo-uri=mongodb+srv://u:p@cluster.example.net/?x=1', '--db=d'], {}))
      .toEqual({ kind: 'seed', scale: 0.5, mongoUri: 'mongodb+srv://u:p@cluster.example.net/?x=1', dbName: 'd' });
  });

  test('flags override MONGODB_URI and MONGODB_DB; empty env vars count as unset', () => {
    const env = { MONGODB_URI: URI, MONGODB_DB: 'fromenv' };
    expect(parseSeedArgs([], env)).toMatchObject({ mongoUri: URI, dbName: 'fromenv' });
    expect(parseSeedArgs(['--db', 'flag', '--mongo-uri', 'mongodb://other'], env))
      .toMatchObject({ mongoUri: 'mongodb://other', dbName: 'flag' });
    expect(parseSeedArgs([], { MONGODB_URI: URI, MONGODB_DB: '' })).toMatchObject({ dbName: 'docjoin' });
    expect(parseSeedArgs([], { MONGODB_URI: ' ' })).toEqual({ kind: 'usage-error', message: NO_MONGO_MESSAGE });
  });

  test('--help and -h win over everything else', () => {
    expect(parseSeedArgs(['--scale', 'x', '--help'], {})).toEqual({ kind: 'help' });
    expect(parseSeedArgs(['-h'], {})).toEqual({ kind: 'help' });
  });

  test('without a MongoDB it explains where the embedded server lives, on one line', () => {
    const result = parseSeedArgs(['--scale', '2'], {});
    expect(result).toEqual({ kind: 'usage-error', message: NO_MONGO_MESSAGE });
    expect(NO_MONGO_MESSAGE).not.toContain('\n');
    expect(NO_MONGO_MESSAGE).toContain("inside `npm start`'s process");
    expect(NO_MONGO_MESSAGE).toContain('--mongo-uri');
  });

  test.each([
    [['--scale', '0'], '--scale must be greater than 0, got "0"'],
    [['--scale', '-1'], '--scale must be a positive number, got "-1"'],
    [['--scale', 'abc'], '--scale must be a positive number, got "abc"'],
    [['--scale', '1e3'], '--scale must be a positive number, got "1e3"'],
    [['--scale', '0x10'], '--scale must be a positive number, got "0x10"'],
    [['--scale='], '--scale must be a positive number, got ""'],
    [['--scale', '21'], `--scale must be at most ${MAX_SCALE} (the dataset is generated in memory), got "21"`],
    [['--scale'], '--scale needs a value, e.g. --scale 2'],
    [['--scale', '--db', 'x'], '--scale needs a value, e.g. --scale 2'],
    [['--mongo-uri'], '--mongo-uri needs a value, e.g. --mongo-uri mongodb://localhost:27017'],
    [['--db'], '--db needs a value, e.g. --db docjoin'],
    [['--db', 'a.b'], '--db must be a MongoDB database name (1 to 63 characters, none of /\\. "$*<>:|?), got "a.b"'],
    [['--db', 'x'.repeat(64)], `--db must be a MongoDB database name (1 to 63 characters, none of /\\. "$*<>:|?), got "${'x'.repeat(64)}"`],
    [['--mongo-uri', 'localhost:27017'], '--mongo-uri must start with mongodb:// or mongodb+srv://, got "localhost:27017"'],
    [['--verbose'], 'unknown option --verbose (try --help)'],
    [['--scale=2', '-v'], 'unknown option -v (try --help)'],
    [['2'], 'unexpected argument "2" (options are --scale, --mongo-uri, --db; try --help)'],
  ])('%j is a usage error', (argv, message) => {
    expect(parseSeedArgs(argv, withUri)).toEqual({ kind: 'usage-error', message });
  });

  test('accepts fractional and maximal scales', () => {
    expect(parseSeedArgs(['--scale', '.25'], withUri)).toMatchObject({ scale: 0.25 });
    expect(parseSeedArgs(['--scale', '20'], withUri)).toMatchObject({ scale: 20 });
    expect(parseSeedArgs(['--scale', '2.'], withUri)).toMatchObject({ scale: 2 });
  });
});
