import pino, { type Logger } from 'pino';

/** A pino logger at info whose JSON lines land in `lines`, for tests that read what was logged. */
export function capturedLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}
