import { DEFAULT_COST_LIMITS, GatewayOptionError } from 'docjoin';
import { resolve } from 'node:path';
import { checkOptionNames, resolveSettings, type GatewaySettings } from '../../../src/gateway/gateway-options';

describe('resolveSettings', () => {
  it('applies the defaults, production following NODE_ENV unless told', () => {
    expect(resolveSettings({}, undefined)).toEqual({
      port: 4000,
      host: undefined,
      cors: false,
      landingPage: 'sandbox',
      production: false,
      strategyOverrides: true,
      costCommands: true,
      costReport: true,
      limits: DEFAULT_COST_LIMITS,
      assumedListSize: 20,
      budget: false,
      trustProxy: false,
      metrics: true,
      metricsToken: undefined,
      slowOperationMs: 1000,
      logVariables: false,
      shutdownGraceMs: 10_000,
      shutdownDelayMs: 3_000,
      maxConcurrentOperations: 32,
      maxQueuedOperations: 128,
      queueTimeoutMs: 10_000,
      maxTransactionAttempts: 8,
      transactionRetryMs: 2000,
      trustedDocuments: undefined,
      maxDocumentsInFlight: 250_000,
      operationTimeoutMs: 30_000,
      maxResponseBytes: 32 * 1024 * 1024,
      introspection: true,
      healthDetail: true,
      workload: false,
    });
    expect(resolveSettings({}, 'production')).toMatchObject({ production: true, landingPage: 'none', strategyOverrides: false, costCommands: false, introspection: false, healthDetail: false });
    expect(resolveSettings({ production: false }, 'production')).toMatchObject({ production: false, landingPage: 'sandbox' });
  });

  it('keeps what it is given', () => {
    expect(
      resolveSettings({ port: 0, host: '127.0.0.1', cors: { origin: ['https://a.example.com', 'http://localhost:3000'], credentials: true }, landingPage: 'none', limits: { maxDepth: 4, maxDocuments: Infinity } }, undefined),
    ).toMatchObject({
      port: 0,
      host: '127.0.0.1',
      cors: { origin: ['https://a.example.com', 'http://localhost:3000'], credentials: true },
      landingPage: 'none',
      limits: { maxRoundTrips: 50, maxDocuments: Infinity, maxDepth: 4, maxResponseNodes: 500_000 },
    });
    expect(resolveSettings({ cors: { origin: 'https://a.example.com' } }, undefined).cors).toEqual({ origin: ['https://a.example.com'] });
    // Browsers send the origin in lower case.
    expect(resolveSettings({ cors: { origin: ['https://App.Example.com/', 'HTTP://localhost:3000', 'https://app.example.org:443'] } }, undefined).cors).toEqual({ origin: ['https://app.example.com', 'http://localhost:3000', 'https://app.example.org'] });
  });

  it('keeps a metrics token, and refuses a short or unsendable one without repeating it', () => {
    const token = 'a1B2-c3D4.e5F6_g7H8~i9/+';
    expect(resolveSettings({ metricsToken: token }, undefined).metricsToken).toBe(token);
    const refusal = (metricsToken: unknown) => {
      try {
        resolveSettings({ metricsToken } as GatewaySettings, undefined);
      } catch (error) {
        return error as Error;
      }
      throw new Error('accepted');
    };
    expect(refusal('short-secret')).toEqual(new GatewayOptionError('option metricsToken must be at least 16 characters long, got 12 (e.g. openssl rand -hex 24)'));
    expect(refusal('has a space in it, 16+ chars')).toEqual(new GatewayOptionError('option metricsToken may hold only A–Z, a–z, 0–9 and -._~+/ (then = padding), as a bearer token does'));
    expect(refusal(12345678901234567890)).toEqual(new GatewayOptionError('option metricsToken must be a string, got number'));
    expect(refusal('short-secret').message).not.toContain('short-secret');
  });

  it('resolves the workload option: the file from the working directory, the flush interval defaulted', () => {
    expect(resolveSettings({ workload: { file: 'workload.jsonl' } }, undefined).workload).toEqual({ file: resolve('workload.jsonl'), flushIntervalMs: 60_000 });
    expect(resolveSettings({ workload: { collection: 'docjoin_workload', flushIntervalMs: 1000 } }, undefined).workload).toEqual({ collection: 'docjoin_workload', flushIntervalMs: 1000 });
    expect(resolveSettings({ workload: false }, undefined).workload).toBe(false);
  });

  it.each<[GatewaySettings, string]>([
    [{ port: 70000 }, 'option port must be an integer from 0 to 65535, got 70000'],
    [{ port: '80' as unknown as number }, 'option port must be an integer from 0 to 65535, got "80"'],
    [{ host: '' }, 'option host must be a non-empty string such as "127.0.0.1", got ""'],
    [{ cors: { origin: 'app.example.com' } }, 'option cors must be true, false or { origin: "https://app.example.com" | [origins], credentials?: boolean }, got {"origin":"app.example.com"}'],
    [{ cors: 'yes' as unknown as boolean }, 'option cors must be true, false or { origin: "https://app.example.com" | [origins], credentials?: boolean }, got "yes"'],
    [{ landingPage: 'graphiql' as 'none' }, 'option landingPage must be "sandbox", "ide" or "none", got "graphiql"'],
    [{ production: 1 as unknown as boolean }, 'option production must be true or false, got 1'],
    [{ limits: { maxDepth: 0 } }, 'option limits.maxDepth must be a whole number of at least 1 (or Infinity), got 0'],
    [{ limits: { maxRounds: 3 } as never }, 'option limits.maxRounds is not a limit; the limits are maxRoundTrips, maxDocuments, maxDepth, maxResponseNodes'],
    [{ assumedListSize: 0 }, 'option assumedListSize must be an integer from 1 to any size, got 0'],
    [{ maxTransactionAttempts: 0 }, 'option maxTransactionAttempts must be an integer from 1 to any size, got 0'],
    [{ maxTransactionAttempts: 2.5 }, 'option maxTransactionAttempts must be an integer from 1 to any size, got 2.5'],
    [{ transactionRetryMs: -1 }, 'option transactionRetryMs must be an integer from 0 to 2147483647 (some 24.8 days, the longest a Node timer waits), got -1'],
    [{ operationTimeoutMs: 0 }, 'option operationTimeoutMs must be an integer from 1 to 2147483647 (some 24.8 days, the longest a Node timer waits), got 0'],
    [{ maxDocumentsInFlight: 1.5 }, 'option maxDocumentsInFlight must be an integer from 1 to any size, got 1.5'],
    [{ maxResponseBytes: '1MB' as unknown as number }, 'option maxResponseBytes must be an integer from 1 to any size, got "1MB"'],
    [{ healthDetail: 'yes' as unknown as boolean }, 'option healthDetail must be true or false, got "yes"'],
    [{ introspection: 'admin' as unknown as boolean }, 'option introspection must be true, false or a list of roles such as ["admin"], got "admin"'],
    [{ budget: { capacity: 0, restoreRate: 5 } }, 'option budget must be false or { capacity: 1000, restoreRate: 50 } (points, and points a second, both above 0), got {"capacity":0,"restoreRate":5}'],
    [{ trustedDocuments: { manifest: 'a.json', strict: true } as never }, 'option trustedDocuments must be { manifest: "generated/client/persisted-documents.json", only?: true | false }, got {"manifest":"a.json","strict":true}'],
    [{ transactionRetryMs: '100' as unknown as number }, 'option transactionRetryMs must be an integer from 0 to 2147483647 (some 24.8 days, the longest a Node timer waits), got "100"'],
    [{ workload: true as never }, 'option workload must be false, { file: "workload.jsonl" } or { collection: "docjoin_workload" }, with an optional flushIntervalMs, got true'],
    [{ workload: { file: 'a.jsonl', collection: 'b' } as never }, 'option workload must be false, { file: "workload.jsonl" } or { collection: "docjoin_workload" }, with an optional flushIntervalMs, got {"file":"a.jsonl","collection":"b"}'],
    [{ workload: { file: 'a.jsonl', flushMs: 10 } as never }, 'option workload must be false, { file: "workload.jsonl" } or { collection: "docjoin_workload" }, with an optional flushIntervalMs, got {"file":"a.jsonl","flushMs":10}'],
    [{ workload: { file: '' } }, 'option workload.file must be a file path such as "workload.jsonl", got ""'],
    [{ workload: { collection: 'system.profile' } }, 'option workload.collection must be a collection name such as "docjoin_workload" (no "$", not system.*), got "system.profile"'],
    [{ workload: { collection: 'w', flushIntervalMs: 10 } }, 'option workload.flushIntervalMs must be an integer from 100 to any size, got 10'],
  ])('%j is refused naming the option and the value', (settings, message) => {
    expect(() => resolveSettings(settings, undefined)).toThrow(new GatewayOptionError(message));
  });
});

describe('checkOptionNames', () => {
  const client = { db: () => undefined };
  it('refuses a misspelt option, and a missing SDL, client or database, naming them', () => {
    expect(() => checkOptionNames({ typeDefs: 'type Query { a: Int }', mongoClient: client, db: 'app', validateDatabse: false })).toThrow(
      new GatewayOptionError(
        'unknown option "validateDatabse"; the options are typeDefs, resolvers, writePlans, mongoClient, db, mongoKind, mongoUri, validateDatabase, onWarning, writes, checkEstimates, onEstimateViolation, limitOrigins, listen, logger, auth, port, host, cors, landingPage, production, strategyOverrides, costCommands, costReport, limits, assumedListSize, metrics, metricsToken, slowOperationMs, logVariables, shutdownGraceMs, shutdownDelayMs, maxConcurrentOperations, maxQueuedOperations, queueTimeoutMs, maxTransactionAttempts, transactionRetryMs, maxDocumentsInFlight, operationTimeoutMs, maxResponseBytes, budget, trustProxy, trustedDocuments, introspection, healthDetail, workload',
      ),
    );
    expect(() => checkOptionNames({ mongoClient: client, db: 'app' })).toThrow(new GatewayOptionError('option typeDefs must be your SDL (a string, or a list of them), got undefined'));
    expect(() => checkOptionNames({ typeDefs: 'type Query { a: Int }', mongoClient: 'mongodb://x', db: 'app' })).toThrow(
      new GatewayOptionError('option mongoClient must be a MongoClient (connectMongo(uri) makes one with command monitoring on)'),
    );
    expect(() => checkOptionNames({ typeDefs: ['type Query { a: Int }'], mongoClient: client, db: '' })).toThrow(new GatewayOptionError('option db must be a database name or a Db, got ""'));
    expect(() => checkOptionNames({ typeDefs: 'type Query { a: Int }', mongoClient: client, db: 'app', port: undefined })).not.toThrow();
  });
});
