import { MAX_SCALE, NO_MONGO_MESSAGE, parseSeedArgs } from '../../../src/cli/seed/seed-args';

const URI = 'mongodb://localhost:27017';
const withUri = { MONGODB_URI: URI };

describe('parseSeedArgs', () => {
  const NO_PROJECT = { configPath: undefined, schemaPaths: undefined };

  test('defaults: scale 1; the MongoDB is left to the environment and the config file', () => {
    expect(parseSeedArgs([], withUri)).toEqual({ kind: 'seed', scale: 1, mongoUri: undefined, db: undefined, project: NO_PROJECT });
  });

  test('reads --scale, --mongo-uri, --db and the project flags, with a space or an =', () => {
    expect(parseSeedArgs(['--scale', '3', '--mongo-uri', 'mongodb://db:27018', '--db', 'demo', '--config', 'x/docjoin.config.mjs'], {})).toEqual({
      kind: 'seed', scale: 3, mongoUri: 'mongodb://db:27018', db: 'demo', project: { configPath: 'x/docjoin.config.mjs', schemaPaths: undefined },
    });
    expect(parseSeedArgs(['--scale=0.5', '--mongo-uri=mongodb+srv://u:p@cluster.example.net/?x=1', '--db=d', '--schema=a.graphql, b/'], {}))
      .toEqual({ kind: 'seed', scale: 0.5, mongoUri: 'mongodb+srv://u:p@cluster.example.net/?x=1', db: 'd', project: { configPath: undefined, schemaPaths: ['a.graphql', 'b/'] } });
  });

  test('--help and -h win over everything else', () => {
    expect(parseSeedArgs(['--scale', 'x', '--help'], {})).toEqual({ kind: 'help' });
    expect(parseSeedArgs(['-h'], {})).toEqual({ kind: 'help' });
  });

  test('the message for a missing MongoDB is one line that says where the embedded server lives', () => {
    expect(NO_MONGO_MESSAGE).not.toContain('\n');
    expect(NO_MONGO_MESSAGE).toContain("inside `docjoin serve`'s process");
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
    [['2'], 'unexpected argument "2" (options are --scale, --mongo-uri, --db, --config, --schema; try --help)'],
  ])('%j is a usage error', (argv, message) => {
    expect(parseSeedArgs(argv, withUri)).toEqual({ kind: 'usage-error', message });
  });

  test('accepts fractional and maximal scales', () => {
    expect(parseSeedArgs(['--scale', '.25'], withUri)).toMatchObject({ scale: 0.25 });
    expect(parseSeedArgs(['--scale', '20'], withUri)).toMatchObject({ scale: 20 });
    expect(parseSeedArgs(['--scale', '2.'], withUri)).toMatchObject({ scale: 2 });
  });
});
