import path from 'node:path';
import { createLogger } from '../../../src/observability/logger';
import { packageFilesLoadedBy } from '../../support/package-files-loaded';

const LOGGER_MODULE = path.join(__dirname, '../../../src/observability/logger.ts');

/** How many of pino-pretty's files a fresh process has loaded after creating a logger of this format. */
function prettyFilesLoadedBy(format: 'json' | 'pretty'): number {
  const script = `const { createLogger } = require(${JSON.stringify(LOGGER_MODULE)});
createLogger({ level: 'info', format: '${format}', destination: { write() {} } });`;
  return packageFilesLoadedBy(script, 'pino-pretty');
}

describe('createLogger', () => {
  it('passes every line through redactSecrets: URIs in messages and fields, and known secrets quoted alone', async () => {
    const lines: string[] = [];
    const uri = 'mongodb://app:pw-secret-9@db.internal:27017/?proxyPassword=proxy-secret-9';
    const logger = createLogger({ level: 'info', format: 'json', destination: { write: (line: string) => lines.push(line) }, knownUris: [uri] });
    logger.warn({ mongo: uri }, `MongoDB at ${uri} refused proxy-secret-9`);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!) as { mongo: string; msg: string };
    expect(line.mongo).toBe('mongodb://***@db.internal:27017/?proxyPassword=***');
    expect(line.msg).toBe('MongoDB at mongodb://***@db.internal:27017/?proxyPassword=*** refused ***');
  });

  it("redacts a URI as JSON writes it: quoted (\\\"), ending a message before its stack (\\n), and a known password holding a quote", async () => {
    const lines: string[] = [];
    const known = 'mongodb://app:pw%22quoted@db.internal:27017';
    const logger = createLogger({ level: 'info', format: 'json', destination: { write: (line: string) => lines.push(line) }, knownUris: [known] });
    logger.error({ err: new Error('could not connect to "mongodb://admin:hunter2@db.internal:27017"') }, 'quoted');
    logger.error({ err: new Error('could not connect to mongodb://admin:hunter2@db.internal:27017') }, 'ending the message');
    logger.warn({ detail: 'the server said pw"quoted is wrong' }, 'decoded password');
    await new Promise((resolve) => setImmediate(resolve));
    const written = lines.join('');
    expect(written.match(/hunter2|admin:|pw\\"quoted|pw%22quoted/g)).toBeNull();
    const parsed = written.trim().split('\n').map((line) => JSON.parse(line) as { err?: { message: string; stack: string }; detail?: string });
    expect(parsed.map((line) => line.err?.message ?? line.detail)).toEqual([
      'could not connect to "mongodb://***@db.internal:27017"',
      'could not connect to mongodb://***@db.internal:27017',
      'the server said *** is wrong',
    ]);
    expect(parsed[1]!.err!.stack).toMatch(/^Error: could not connect to mongodb:\/\/\*\*\*@db\.internal:27017\n {4}at /);
  });

  it("writes a JSON logger's held lines when pino's flush is called, before the turn ends", () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', format: 'json', destination: { write: (text: string) => lines.push(text) } });
    logger.info('one');
    logger.info('two');
    expect(lines).toEqual([]);
    logger.flush();
    expect(lines.join('').trim().split('\n').map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['one', 'two']);
  });

  it('loads pino-pretty only for pretty lines: a JSON logger (production) does not carry its modules', () => {
    expect(prettyFilesLoadedBy('json')).toBe(0);
    expect(prettyFilesLoadedBy('pretty')).toBeGreaterThan(0);
  });

  it('writes a pretty logger\'s lines through pino-pretty, on one line each', () => {
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', format: 'pretty', destination: { write: (line: string) => lines.push(line) } });
    logger.info({ roundTrips: 2 }, 'operation');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: operation \{"roundTrips":2\}\n$/);
  });
});
