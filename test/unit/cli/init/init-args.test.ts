import { databaseOfUri, INIT_USAGE, parseInitArgs } from '../../../../src/cli/init/init-args';

describe('parseInitArgs', () => {
  const URI = 'mongodb://localhost:27017';

  test('without --from-mongo: the scaffold, in the folder given or this one', () => {
    expect(parseInitArgs([], {})).toEqual({ kind: 'scaffold', folder: '.' });
    expect(parseInitArgs(['blog'], {})).toEqual({ kind: 'scaffold', folder: 'blog' });
  });

  test('--from-mongo: the database from --db, else the URI, else MONGODB_DB; 100 documents by default', () => {
    expect(parseInitArgs(['--from-mongo', URI, '--db', 'blog'], {})).toEqual({ kind: 'from-mongo', folder: '.', mongoUri: URI, dbName: 'blog', sampleSize: 100 });
    expect(parseInitArgs(['--from-mongo=mongodb://u:p@h1,h2/shop?replicaSet=rs', 'draft', '--sample', '1_000'], { MONGODB_DB: 'other' })).toEqual({
      kind: 'from-mongo', folder: 'draft', mongoUri: 'mongodb://u:p@h1,h2/shop?replicaSet=rs', dbName: 'shop', sampleSize: 1000,
    });
    expect(parseInitArgs(['--from-mongo', URI], { MONGODB_DB: 'blog' })).toMatchObject({ dbName: 'blog' });
  });

  test('--help wins over everything else', () => {
    expect(parseInitArgs(['--from-mongo', 'x', '--help'], {})).toEqual({ kind: 'help' });
    expect(INIT_USAGE.split('\n').slice(0, 2)).toEqual(['Usage: docjoin init [folder]', '       docjoin init --from-mongo URI [--db NAME] [--sample N] [folder]']);
  });

  test.each([
    [['--from-mongo', 'localhost:27017', '--db', 'x'], '--from-mongo must start with mongodb:// or mongodb+srv://, got "localhost:27017"'],
    [['--from-mongo', 'mongodb://localhost'], '--from-mongo needs a database: name it with --db NAME, or in the URI (mongodb://host/NAME)'],
    [['--from-mongo', URI, '--db', 'a.b'], '--db must be a MongoDB database name (1 to 63 characters, none of /\\. "$*<>:|?), got "a.b"'],
    [['--from-mongo', `${URI}/a$b`], 'the database in --from-mongo must be a MongoDB database name (1 to 63 characters, none of /\\. "$*<>:|?), got "a$b"'],
    [['--from-mongo', URI, '--db', 'x', '--sample', '0'], '--sample must be an integer from 1 to 10000, got "0"'],
    [['--from-mongo', URI, '--db', 'x', '--sample', 'many'], '--sample must be an integer from 1 to 10000, got "many"'],
    [['--from-mongo'], '--from-mongo needs a value, e.g. --from-mongo mongodb://localhost:27017/blog'],
    [['--db', 'blog'], '--db goes with --from-mongo URI (a draft from an existing database); try --help'],
    [['a', 'b'], 'unexpected argument "b" (options are --from-mongo, --db, --sample; try --help)'],
  ])('%j is one line', (argv, message) => {
    expect(parseInitArgs(argv, {})).toEqual({ kind: 'usage-error', message });
  });

  test('databaseOfUri reads the path after the hosts, credentials and options aside', () => {
    expect(['mongodb://h/blog', 'mongodb+srv://c.example.net/shop?retryWrites=true', 'mongodb://u:pa/ss@h:1/db%2D1', 'mongodb://h', 'mongodb://h/?x=1', 'mongodb://h?x=1'].map(databaseOfUri)).toEqual([
      'blog', 'shop', 'db-1', undefined, undefined, undefined,
    ]);
  });
});
