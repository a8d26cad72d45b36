import { parseServeArgs } from '../../../../src/cli/serve/serve-args';

describe('parseServeArgs', () => {
  it('without flags is the configuration of `npm start`: embedded, port 4000, scale 1', () => {
    expect(parseServeArgs([], {})).toMatchObject({ kind: 'serve', config: { port: 4000, mongodbUri: undefined, mongodbDb: 'docjoin', seedScale: 1 } });
  });

  it('flags override their environment variables', () => {
    const env = { PORT: '5000', MONGODB_DB: 'fromenv', DOCJOIN_SEED_SCALE: '3' };
    expect(parseServeArgs(['--port', '0', '--db=shop', '--seed-scale', '0.5'], env)).toMatchObject({
      kind: 'serve',
      config: { port: 0, mongodbDb: 'shop', seedScale: 0.5 },
    });
    expect(parseServeArgs(['--mongo-uri', 'mongodb://db:27017'], { MONGODB_URI: 'mongodb://other' })).toMatchObject({ config: { mongodbUri: 'mongodb://db:27017' } });
  });

  it('--help wins', () => {
    expect(parseServeArgs(['--port', 'x', '--help'], {})).toEqual({ kind: 'help' });
  });

  it.each([
    [['--port', 'http'], {}, '--port must be an integer from 0 to 65535, got "http"'],
    [['--port'], {}, '--port needs a value, e.g. --port 4000'],
    [['--seed-scale', '50'], {}, '--seed-scale must be at most 20 (the dataset is generated in memory), got "50"'],
    [['--mongo-uri', 'localhost:27017'], {}, '--mongo-uri must start with mongodb:// or mongodb+srv://, got "localhost:27017"; leave it out to use the embedded server'],
    [
      ['--mongo-uri', 'mongodb://x', '--seed-scale', '2'],
      {},
      "--seed-scale only applies to the embedded server, and a MongoDB URI is given (--mongo-uri, MONGODB_URI or the config's mongodb.uri); seed your MongoDB with docjoin seed --scale N",
    ],
    [['--scale', '2'], {}, 'unknown option --scale (try --help)'],
    [['4000'], {}, 'unexpected argument "4000" (options are --port, --mongo-uri, --db, --seed-scale, --config, --schema; try --help)'],
    // Invalid environment is refused at start too, naming the variable.
    [[], { DOCJOIN_MAX_DEPTH: 'deep' }, 'DOCJOIN_MAX_DEPTH must be a whole number of at least 1 (or "none" for no limit), got "deep"'],
    [[], { PORT: '99999' }, 'PORT must be an integer from 0 to 65535, got "99999"'],
  ])('%j with env %j is a one-line usage error', (argv, env, message) => {
    expect(parseServeArgs(argv, env)).toEqual({ kind: 'usage-error', message });
  });
});
