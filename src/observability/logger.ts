import pino, { type BaseLogger, type Level, type Logger } from 'pino';
import { coalescedWrites, type TextDestination } from './coalesced-writes';
import { createRedactor } from './redact-secrets';

/**
 * docjoin's logs: pino, JSON lines in production and whenever stdout is not a terminal (written once
 * per turn of the event loop: coalesced-writes.ts), pretty lines on a terminal. The level comes from
 * DOCJOIN_LOG_LEVEL (default info). Log lines carry facts (names, counts, durations, error codes), never
 * a request's variables or a document, unless DOCJOIN_LOG_VARIABLES asks for variables.
 */

/** What docjoin logs to: a pino logger, or anything with pino's methods (createGateway's `logger`). */
export type DocjoinLogger = BaseLogger;

export type LogFormat = 'json' | 'pretty';
export const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];
export const LOG_LEVELS: readonly (Level | 'silent')[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export interface LoggerOptions {
  readonly level: Level | 'silent';
  readonly format: LogFormat;
  /** Where lines go (default stdout). */
  readonly destination?: TextDestination;
  /** URIs whose secrets are removed from every line, even where a message quotes one alone (redactSecrets). */
  readonly knownUris?: readonly (string | undefined)[];
}

export function createLogger(options: LoggerOptions): Logger {
  const redact = createRedactor(options.knownUris ?? []);
  const base = {
    level: options.level,
    base: { name: 'docjoin' },
    timestamp: pino.stdTimeFunctions.isoTime,
    hooks: { streamWrite: redact },
  };
  if (options.format === 'pretty') {
    const target = options.destination ?? process.stdout;
    const colorize = (target as { isTTY?: boolean }).isTTY === true;
    // Loaded only here: JSON logging (production) never carries pino-pretty's modules (about 10 MB).
    const { prettyFactory } = require('pino-pretty') as typeof import('pino-pretty');
    const prettify = prettyFactory({ colorize, singleLine: true, ignore: 'pid,hostname,name', translateTime: 'SYS:HH:MM:ss.l' });
    return pino(base, { write: (line: string) => void target.write(prettify(line)) });
  }
  // Synchronous underneath, so that the last lines (shutdown) are written before the process exits.
  return pino(base, coalescedWrites(options.destination ?? pino.destination({ dest: 1, sync: true })));
}

/** A logger that drops everything: createGateway's default, so a library user opts in to logs. */
export function silentLogger(): DocjoinLogger {
  return pino({ level: 'silent' });
}

/** JSON for machines (production, or output to a file or a pipe), pretty for a person at a terminal. */
export function defaultLogFormat(production: boolean, stdoutIsTty: boolean): LogFormat {
  return !production && stdoutIsTty ? 'pretty' : 'json';
}
