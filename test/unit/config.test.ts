import { resolve } from 'node:path';
import { ConfigError, loadConfig } from '../../src/config/config';

describe('loadConfig', () => {
  it('has defaults for development', () => {
    expect(loadConfig({})).toEqual({
      port: 4000,
      mongodbUri: undefined,
      mongodbDb: 'docjoin',
      seedScale: 1,
      mongoTimeoutMs: 5000,
      strategyOverrides: true,
      costCommands: true,
      costReport: true,
      limits: { maxRoundTrips: 50, maxDocuments: 100_000, maxDepth: 10, maxResponseNodes: 500_000 },
      assumedListSize: 20,
      budget: false,
      trustProxy: false,
      host: undefined,
      cors: false,
      landingPage: 'sandbox',
      limitOrigins: {
        maxRoundTrips: "the default; DOCJOIN_MAX_ROUND_TRIPS or the config's server.limits.maxRoundTrips changes it",
        maxDocuments: "the default; DOCJOIN_MAX_DOCUMENTS or the config's server.limits.maxDocuments changes it",
        maxDepth: "the default; DOCJOIN_MAX_DEPTH or the config's server.limits.maxDepth changes it",
        maxResponseNodes: "the default; DOCJOIN_MAX_RESPONSE_NODES or the config's server.limits.maxResponseNodes changes it",
      },
      nodeEnv: 'development',
      production: false,
      // Jest's stdout is no terminal: JSON lines.
      logFormat: 'json',
      logLevel: 'info',
      logVariables: false,
      metrics: true,
      slowOperationMs: 1000,
      shutdownGraceMs: 10_000,
      shutdownDelayMs: 3_000,
      maxConcurrentOperations: 32,
      maxDocumentsInFlight: 250_000,
      operationTimeoutMs: 30_000,
      maxResponseBytes: 32 * 1024 * 1024,
      introspection: true,
      healthDetail: true,
      maxQueuedOperations: 128,
      queueTimeoutMs: 10_000,
      maxTransactionAttempts: 8,
      transactionRetryMs: 2000,
      trustedDocuments: undefined,
      workload: false,
    });
  });

  it('reads DOCJOIN_WORKLOAD and DOCJOIN_WORKLOAD_FLUSH_MS, over the config file\'s server.workload', () => {
    // The file's path made absolute, the flush interval's default (60 s) applied.
    expect(loadConfig({ DOCJOIN_WORKLOAD: 'file:./workload.jsonl' }).workload).toEqual({ file: resolve('workload.jsonl'), flushIntervalMs: 60_000 });
    expect(loadConfig({ DOCJOIN_WORKLOAD: 'collection:docjoin_workload', DOCJOIN_WORKLOAD_FLUSH_MS: '5_000' }).workload).toEqual({ collection: 'docjoin_workload', flushIntervalMs: 5000 });
    expect(loadConfig({}, {}, { server: { workload: { collection: 'recorded' } } }).workload).toEqual({ collection: 'recorded', flushIntervalMs: 60_000 });
    expect(loadConfig({ DOCJOIN_WORKLOAD_FLUSH_MS: '1000' }, {}, { server: { workload: { file: 'w.jsonl', flushIntervalMs: 9000 } } }).workload).toEqual({ file: resolve('w.jsonl'), flushIntervalMs: 1000 });
    expect(loadConfig({ DOCJOIN_WORKLOAD: 'off' }, {}, { server: { workload: { collection: 'recorded' } } }).workload).toBe(false);
    expect(loadConfig({ DOCJOIN_WORKLOAD_FLUSH_MS: '1000' }).workload).toBe(false);
  });

  it('reads the log and metrics settings, refusing an unknown level or format', () => {
    expect(loadConfig({ DOCJOIN_LOG_LEVEL: 'DEBUG', DOCJOIN_LOG_FORMAT: 'pretty', DOCJOIN_SLOW_MS: '250', DOCJOIN_METRICS: 'off', DOCJOIN_LOG_VARIABLES: 'yes' })).toMatchObject({
      logLevel: 'debug',
      logFormat: 'pretty',
      slowOperationMs: 250,
      metrics: false,
      logVariables: true,
    });
    expect(() => loadConfig({ DOCJOIN_LOG_LEVEL: 'verbose' })).toThrow('DOCJOIN_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"');
    expect(() => loadConfig({ DOCJOIN_LOG_FORMAT: 'text' })).toThrow('DOCJOIN_LOG_FORMAT must be one of json, pretty, got "text"');
    expect(loadConfig({ NODE_ENV: 'production' }).logFormat).toBe('json');
  });

  it('reads the metrics token, refusing a short one without printing it', () => {
    expect(loadConfig({ DOCJOIN_METRICS_TOKEN: ' 0123456789abcdef0123 ' }).metricsToken).toBe('0123456789abcdef0123');
    expect(loadConfig({ DOCJOIN_METRICS_TOKEN: '' }).metricsToken).toBeUndefined();
    expect(() => loadConfig({ DOCJOIN_METRICS_TOKEN: 'hunter2' })).toThrow(new ConfigError('DOCJOIN_METRICS_TOKEN must be at least 16 characters long, got 7 (e.g. openssl rand -hex 24)'));
    expect(() => loadConfig({ DOCJOIN_METRICS_TOKEN: 'pass word with spaces' })).toThrow(new ConfigError('DOCJOIN_METRICS_TOKEN may hold only A–Z, a–z, 0–9 and -._~+/ (then = padding), as a bearer token does'));
  });

  it('reads the transaction retry bounds, refusing 0 attempts', () => {
    expect(loadConfig({ DOCJOIN_MAX_TRANSACTION_ATTEMPTS: '3', DOCJOIN_TRANSACTION_RETRY_MS: '0' })).toMatchObject({ maxTransactionAttempts: 3, transactionRetryMs: 0 });
    expect(loadConfig({}, {}, { server: { maxTransactionAttempts: 8, transactionRetryMs: 500 } })).toMatchObject({ maxTransactionAttempts: 8, transactionRetryMs: 500 });
    expect(() => loadConfig({ DOCJOIN_MAX_TRANSACTION_ATTEMPTS: '0' })).toThrow('DOCJOIN_MAX_TRANSACTION_ATTEMPTS must be a whole number of at least 1, got "0"');
    expect(() => loadConfig({ DOCJOIN_TRANSACTION_RETRY_MS: '2s' })).toThrow('DOCJOIN_TRANSACTION_RETRY_MS must be a whole number of milliseconds, got "2s"');
    expect(() => loadConfig({ DOCJOIN_MAX_QUEUED: 'lots' })).toThrow('DOCJOIN_MAX_QUEUED must be a whole number (0 or more), got "lots"');
  });

  it('reads the operation limits and the health detail, which production turns off', () => {
    const env = { DOCJOIN_OPERATION_TIMEOUT_MS: '5000', DOCJOIN_MAX_DOCUMENTS_IN_FLIGHT: '1_000', DOCJOIN_MAX_RESPONSE_BYTES: '1048576', DOCJOIN_HEALTH_DETAIL: 'false' };
    expect(loadConfig(env)).toMatchObject({ operationTimeoutMs: 5000, maxDocumentsInFlight: 1000, maxResponseBytes: 1_048_576, healthDetail: false });
    expect(loadConfig({ NODE_ENV: 'production' }).healthDetail).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', DOCJOIN_HEALTH_DETAIL: 'true' }).healthDetail).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).introspection).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', DOCJOIN_INTROSPECTION: 'admin, support' }).introspection).toEqual(['admin', 'support']);
    expect(loadConfig({ DOCJOIN_INTROSPECTION: 'off' }).introspection).toBe(false);
    expect(() => loadConfig({ DOCJOIN_INTROSPECTION: 'admin;drop' })).toThrow('DOCJOIN_INTROSPECTION must be true, false or roles separated by commas ("admin,support"), got "admin;drop"');
    expect(() => loadConfig({ DOCJOIN_OPERATION_TIMEOUT_MS: '0' })).toThrow('DOCJOIN_OPERATION_TIMEOUT_MS must be a whole number of at least 1, got "0"');
    expect(loadConfig({ DOCJOIN_QUEUE_TIMEOUT_MS: '2500' }).queueTimeoutMs).toBe(2500);
    expect(() => loadConfig({ DOCJOIN_QUEUE_TIMEOUT_MS: '0' })).toThrow('DOCJOIN_QUEUE_TIMEOUT_MS must be a whole number of at least 1, got "0"');
    // A Node timer past 2^31 − 1 ms fires at once: every operation would time out at its start.
    for (const name of ['DOCJOIN_OPERATION_TIMEOUT_MS', 'DOCJOIN_QUEUE_TIMEOUT_MS', 'DOCJOIN_SHUTDOWN_GRACE_MS', 'DOCJOIN_SHUTDOWN_DELAY_MS', 'DOCJOIN_TRANSACTION_RETRY_MS', 'DOCJOIN_MONGO_TIMEOUT_MS']) {
      expect(() => loadConfig({ [name]: '2147483648' })).toThrow(`${name} must be at most 2147483647 milliseconds (some 24.8 days, the longest a Node timer waits), got "2147483648"`);
    }
    expect(loadConfig({ DOCJOIN_OPERATION_TIMEOUT_MS: '2147483647' }).operationTimeoutMs).toBe(2147483647);
    expect(() => loadConfig({}, {}, { server: { operationTimeoutMs: 99_999_999_999 } })).toThrow(
      new ConfigError("the config's server: option operationTimeoutMs must be an integer from 1 to 2147483647 (some 24.8 days, the longest a Node timer waits), got 99999999999"),
    );
  });

  it('reads the browser origins CORS allows from DOCJOIN_CORS_ORIGIN, over the config file, and refuses what is no origin', () => {
    expect(loadConfig({}).cors).toBe(false);
    expect(loadConfig({ DOCJOIN_CORS_ORIGIN: 'https://app.example.com, http://localhost:5173/' }).cors).toEqual({ origin: ['https://app.example.com', 'http://localhost:5173'] });
    expect([loadConfig({ DOCJOIN_CORS_ORIGIN: '*' }).cors, loadConfig({ DOCJOIN_CORS_ORIGIN: 'true' }).cors]).toEqual([true, true]);
    expect(loadConfig({ DOCJOIN_CORS_ORIGIN: 'https://App.Example.com' }).cors).toEqual({ origin: ['https://app.example.com'] });
    expect(loadConfig({ DOCJOIN_CORS_ORIGIN: 'off' }, {}, { server: { cors: true } }).cors).toBe(false);
    expect(loadConfig({}, {}, { server: { cors: { origin: 'https://shop.example.com' } } }).cors).toEqual({ origin: ['https://shop.example.com'] });
    expect(() => loadConfig({ DOCJOIN_CORS_ORIGIN: 'app.example.com' })).toThrow(
      'DOCJOIN_CORS_ORIGIN must be origins separated by commas ("https://app.example.com,http://localhost:5173"), * or false; "app.example.com" is no origin (a scheme and a host, with no path)',
    );
  });

  it('reads the proxies whose X-Forwarded-For it believes from DOCJOIN_TRUST_PROXY, over the config file, and refuses what is no address', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ DOCJOIN_TRUST_PROXY: 'loopback, 10.0.0.0/8' }).trustProxy).toEqual(['loopback', '10.0.0.0/8']);
    expect(loadConfig({ DOCJOIN_TRUST_PROXY: 'off' }, {}, { server: { trustProxy: ['loopback'] } }).trustProxy).toBe(false);
    expect(loadConfig({}, {}, { server: { trustProxy: 'uniquelocal' } }).trustProxy).toEqual(['uniquelocal']);
    expect(() => loadConfig({ DOCJOIN_TRUST_PROXY: 'loopback,proxy.internal' })).toThrow(
      'DOCJOIN_TRUST_PROXY must be the proxies\' addresses or ranges, comma-separated ("loopback" or "10.0.0.0/8,fd00::/8"), or false; invalid IP address: proxy.internal; give addresses, CIDR ranges or loopback, linklocal, uniquelocal, e.g. ["loopback"] or ["10.0.0.0/8", "fd00::/8"]',
    );
    expect(() => loadConfig({}, {}, { server: { trustProxy: ['10.0.0.0/99'] } })).toThrow(
      'the config\'s server: option trustProxy: invalid range on address: 10.0.0.0/99; give addresses, CIDR ranges or loopback, linklocal, uniquelocal, e.g. ["loopback"] or ["10.0.0.0/8", "fd00::/8"]',
    );
    expect(() => loadConfig({}, {}, { server: { trustProxy: true } } as never)).toThrow(
      'the config\'s server: option trustProxy must be false or the proxies whose X-Forwarded-For docjoin believes, e.g. ["loopback"] or ["10.0.0.0/8", "fd00::/8"], got true',
    );
  });

  it('turns strategy overrides off in production unless explicitly enabled', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).strategyOverrides).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', DOCJOIN_STRATEGY_OVERRIDES: 'true' }).strategyOverrides).toBe(true);
    expect(loadConfig({ DOCJOIN_STRATEGY_OVERRIDES: 'off' }).strategyOverrides).toBe(false);
  });

  it('turns the x-docjoin-cost commands view off in production unless explicitly enabled', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).costCommands).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', DOCJOIN_COST_COMMANDS: 'on' }).costCommands).toBe(true);
    expect(loadConfig({ DOCJOIN_COST_COMMANDS: '0' }).costCommands).toBe(false);
  });

  it('reports extensions.cost unless DOCJOIN_COST_REPORT turns it off, in production too', () => {
    expect(loadConfig({ NODE_ENV: 'production' }).costReport).toBe(true);
    expect(loadConfig({ DOCJOIN_COST_REPORT: 'off' }).costReport).toBe(false);
  });

  it('reads the cost limits; "none" turns one off', () => {
    expect(loadConfig({ DOCJOIN_MAX_ROUND_TRIPS: '12', DOCJOIN_MAX_DOCUMENTS: '1_000_000', DOCJOIN_MAX_DEPTH: 'none', DOCJOIN_MAX_RESPONSE_NODES: '20000' }).limits).toEqual({
      maxRoundTrips: 12,
      maxDocuments: 1_000_000,
      maxDepth: Number.POSITIVE_INFINITY,
      maxResponseNodes: 20_000,
    });
  });

  it('says where each cost limit was set: the environment over the config file; the rest are the defaults', () => {
    const config = loadConfig({ DOCJOIN_MAX_DEPTH: '5', DOCJOIN_MAX_DOCUMENTS: '' }, {}, { server: { limits: { maxRoundTrips: 7, maxDepth: 9 } } });
    expect(config.limits).toMatchObject({ maxDepth: 5, maxRoundTrips: 7, maxDocuments: 100_000 });
    expect(config.limitOrigins).toEqual({
      maxDepth: 'set by DOCJOIN_MAX_DEPTH in the environment',
      maxRoundTrips: "set by server.limits.maxRoundTrips in the project's config",
      maxDocuments: "the default; DOCJOIN_MAX_DOCUMENTS or the config's server.limits.maxDocuments changes it",
      maxResponseNodes: "the default; DOCJOIN_MAX_RESPONSE_NODES or the config's server.limits.maxResponseNodes changes it",
    });
  });

  it('reads DOCJOIN_ASSUMED_LIST_SIZE; unset or blank, the estimate\'s default (20)', () => {
    expect(loadConfig({ DOCJOIN_ASSUMED_LIST_SIZE: '50' }).assumedListSize).toBe(50);
    expect(loadConfig({ DOCJOIN_ASSUMED_LIST_SIZE: '1_000' }).assumedListSize).toBe(1000);
    expect(loadConfig({}).assumedListSize).toBe(20);
    expect(loadConfig({ DOCJOIN_ASSUMED_LIST_SIZE: ' ' }, {}, { server: { assumedListSize: 7 } }).assumedListSize).toBe(7);
  });

  it('checks the config file\'s server settings as createGateway does, naming the entry', () => {
    expect(() => loadConfig({}, {}, { server: { slowOperationMs: -1 } })).toThrow(new ConfigError("the config's server: option slowOperationMs must be an integer from 0 to any size, got -1"));
    expect(() => loadConfig({}, {}, { server: { limits: { maxDepth: 0 } } })).toThrow(new ConfigError("the config's server: option limits.maxDepth must be a whole number of at least 1 (or Infinity), got 0"));
    expect(() => loadConfig({ DOCJOIN_MAX_DEPTH: '4' }, {}, { server: { limits: 'strict' as never } })).toThrow(new ConfigError('the config\'s server: option limits must be an object such as { maxRoundTrips: 50 }, got "strict"'));
    expect(loadConfig({ DOCJOIN_MAX_DEPTH: '4' }, {}, { server: { limits: { maxRoundTrips: 9 } } }).limits).toEqual({ maxRoundTrips: 9, maxDocuments: 100_000, maxDepth: 4, maxResponseNodes: 500_000 });
  });

  it('reads PORT, MONGODB_URI, MONGODB_DB and DOCJOIN_SEED_SCALE', () => {
    expect(loadConfig({ PORT: '0', MONGODB_URI: 'mongodb://localhost:27017', MONGODB_DB: 'shop', DOCJOIN_SEED_SCALE: '0.5' })).toMatchObject({
      seedScale: 0.5,
      port: 0,
      mongodbUri: 'mongodb://localhost:27017',
      mongodbDb: 'shop',
    });
  });

  it.each([
    [{ PORT: '80a' }, 'PORT must be an integer from 0 to 65535, got "80a"'],
    [{ PORT: '70000' }, 'PORT must be an integer from 0 to 65535, got "70000"'],
    [{ MONGODB_URI: 'http://user:secret@x' }, 'MONGODB_URI must start with mongodb:// or mongodb+srv://, got "http://***@x"; unset it to use the embedded server'],
    [{ MONGODB_DB: 'my.db' }, 'MONGODB_DB must be a MongoDB database name (1 to 63 characters, none of /\\. "$*<>:|?), got "my.db"'],
    [{ DOCJOIN_SEED_SCALE: '0' }, 'DOCJOIN_SEED_SCALE must be greater than 0, got "0"'],
    [{ DOCJOIN_SEED_SCALE: 'big' }, 'DOCJOIN_SEED_SCALE must be a positive number, got "big"'],
    [{ DOCJOIN_SEED_SCALE: '25' }, 'DOCJOIN_SEED_SCALE must be at most 20 (the dataset is generated in memory), got "25"'],
    [{ DOCJOIN_STRATEGY_OVERRIDES: 'maybe' }, 'DOCJOIN_STRATEGY_OVERRIDES must be one of true/false/1/0/on/off/yes/no, got "maybe"'],
    [{ DOCJOIN_COST_COMMANDS: 'verbose' }, 'DOCJOIN_COST_COMMANDS must be one of true/false/1/0/on/off/yes/no, got "verbose"'],
    [{ DOCJOIN_MAX_ROUND_TRIPS: '0' }, 'DOCJOIN_MAX_ROUND_TRIPS must be a whole number of at least 1 (or "none" for no limit), got "0"'],
    [{ DOCJOIN_MAX_DOCUMENTS: '1e6' }, 'DOCJOIN_MAX_DOCUMENTS must be a whole number of at least 1 (or "none" for no limit), got "1e6"'],
    [{ DOCJOIN_MAX_DEPTH: '-3' }, 'DOCJOIN_MAX_DEPTH must be a whole number of at least 1 (or "none" for no limit), got "-3"'],
    [{ DOCJOIN_ASSUMED_LIST_SIZE: '0' }, 'DOCJOIN_ASSUMED_LIST_SIZE must be a whole number of at least 1, got "0"'],
    [{ DOCJOIN_ASSUMED_LIST_SIZE: '2.5' }, 'DOCJOIN_ASSUMED_LIST_SIZE must be a whole number of at least 1, got "2.5"'],
    [{ DOCJOIN_ASSUMED_LIST_SIZE: 'none' }, 'DOCJOIN_ASSUMED_LIST_SIZE must be a whole number of at least 1, got "none"'],
    [{ DOCJOIN_WORKLOAD: './workload.jsonl' }, 'DOCJOIN_WORKLOAD must be file:PATH (a JSON-lines file), collection:NAME (a collection of the database, no "$") or off, got "./workload.jsonl"'],
    [{ DOCJOIN_WORKLOAD: 'collection:$w' }, 'DOCJOIN_WORKLOAD must be file:PATH (a JSON-lines file), collection:NAME (a collection of the database, no "$") or off, got "collection:$w"'],
    [{ DOCJOIN_WORKLOAD: 'file:' }, 'DOCJOIN_WORKLOAD must be file:PATH (a JSON-lines file), collection:NAME (a collection of the database, no "$") or off, got "file:"'],
    [{ DOCJOIN_WORKLOAD_FLUSH_MS: '50' }, 'DOCJOIN_WORKLOAD_FLUSH_MS must be a whole number of milliseconds, at least 100, got "50"'],
    [{ DOCJOIN_WORKLOAD_FLUSH_MS: '1m' }, 'DOCJOIN_WORKLOAD_FLUSH_MS must be a whole number of milliseconds, at least 100, got "1m"'],
  ])('rejects %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(new ConfigError(message));
  });

  it('lets serve flags override their variables, and names the flag when one is wrong', () => {
    const env = { PORT: '5000', MONGODB_URI: 'mongodb://env-host', MONGODB_DB: 'fromenv', DOCJOIN_SEED_SCALE: '2' };
    expect(loadConfig(env, { port: '0', mongoUri: 'mongodb://flag-host', db: 'fromflag', seedScale: '0.1' })).toMatchObject({
      port: 0,
      mongodbUri: 'mongodb://flag-host',
      mongodbDb: 'fromflag',
      seedScale: 0.1,
    });
    expect(loadConfig(env, {})).toMatchObject({ port: 5000, mongodbUri: 'mongodb://env-host', mongodbDb: 'fromenv', seedScale: 2 });
    expect(() => loadConfig({ PORT: '5000' }, { port: 'http' })).toThrow(new ConfigError('--port must be an integer from 0 to 65535, got "http"'));
    expect(() => loadConfig({}, { port: '' })).toThrow(new ConfigError('--port must be an integer from 0 to 65535, got ""'));
    expect(() => loadConfig({}, { mongoUri: 'localhost' })).toThrow(
      new ConfigError('--mongo-uri must start with mongodb:// or mongodb+srv://, got "localhost"; leave it out to use the embedded server'),
    );
    expect(() => loadConfig({}, { db: 'a/b' })).toThrow(new ConfigError('--db must be a MongoDB database name (1 to 63 characters, none of /\\. "$*<>:|?), got "a/b"'));
    expect(() => loadConfig({}, { seedScale: '30' })).toThrow(new ConfigError('--seed-scale must be at most 20 (the dataset is generated in memory), got "30"'));
  });

  it("falls back to the project's config file below flags and variables", () => {
    const project = {
      mongodb: { uri: 'mongodb://file-host', db: 'fromfile' },
      server: { port: 4100, host: '127.0.0.1', cors: true, landingPage: 'none' as const, strategyOverrides: false, limits: { maxDepth: 4 } },
    };
    expect(loadConfig({}, {}, project)).toMatchObject({
      port: 4100,
      host: '127.0.0.1',
      cors: true,
      landingPage: 'none',
      strategyOverrides: false,
      mongodbUri: 'mongodb://file-host',
      mongodbDb: 'fromfile',
      limits: { maxRoundTrips: 50, maxDocuments: 100_000, maxDepth: 4, maxResponseNodes: 500_000 },
    });
    expect(loadConfig({ PORT: '5000', MONGODB_DB: 'fromenv', DOCJOIN_MAX_DEPTH: '6', DOCJOIN_STRATEGY_OVERRIDES: 'on' }, { mongoUri: 'mongodb://flag-host' }, project)).toMatchObject({
      port: 5000,
      mongodbUri: 'mongodb://flag-host',
      mongodbDb: 'fromenv',
      strategyOverrides: true,
      limits: { maxDepth: 6 },
    });
    expect(() => loadConfig({}, {}, { mongodb: { uri: 'localhost' } })).toThrow(
      new ConfigError('the config\'s mongodb.uri must start with mongodb:// or mongodb+srv://, got "localhost"; leave it out to use the embedded server'),
    );
    // A number is no database name: it would have become "7".
    expect(() => loadConfig({}, {}, { mongodb: { db: 7 as unknown as string } })).toThrow(new ConfigError("the config's mongodb.db must be a string, got 7"));
  });

  it('refuses a wrong value in the config file even where a flag or the environment replaces it: it applies wherever they are not set', () => {
    expect(() => loadConfig({}, { port: '0' }, { server: { port: 99999 } })).toThrow(new ConfigError("the config's server: option port must be an integer from 0 to 65535, got 99999"));
    expect(() => loadConfig({ PORT: '4000' }, {}, { server: { port: 99999 } })).toThrow(new ConfigError("the config's server: option port must be an integer from 0 to 65535, got 99999"));
    expect(() => loadConfig({ DOCJOIN_MAX_DEPTH: '6' }, {}, { server: { limits: { maxDepth: -1 } } })).toThrow(ConfigError);
    expect(() => loadConfig({ MONGODB_URI: 'mongodb://env-host' }, {}, { mongodb: { uri: 'htp://localhost' } })).toThrow(
      new ConfigError('the config\'s mongodb.uri must start with mongodb:// or mongodb+srv://, got "htp://localhost"; leave it out to use the embedded server'),
    );
    expect(() => loadConfig({}, { db: 'fromflag' }, { mongodb: { db: 7 as unknown as string } })).toThrow(new ConfigError("the config's mongodb.db must be a string, got 7"));
    expect(loadConfig({ PORT: '4000' }, {}, { server: { port: 5000 } }).port).toBe(4000);
  });

  it('reads how long a command waits for an unreachable MongoDB', () => {
    expect(loadConfig({ DOCJOIN_MONGO_TIMEOUT_MS: '800' }).mongoTimeoutMs).toBe(800);
    expect(() => loadConfig({ DOCJOIN_MONGO_TIMEOUT_MS: 'soon' })).toThrow(new ConfigError('DOCJOIN_MONGO_TIMEOUT_MS must be a whole number of at least 1, got "soon"'));
  });
});
