import type { Document } from 'bson';
import { CommandError } from '../protocol/command-error';

/** A handler's result as sent: `ok: 1` is appended unless the handler set `ok` itself. */
export function successReply(result: Document): Document {
  return 'ok' in result ? result : { ...result, ok: 1 };
}

/**
 * A thrown error as MongoDB reports it. `CommandError` keeps its code, name, extra fields and labels;
 * anything else is a bug in a handler and becomes code 1 InternalError so the server keeps going.
 */
export function errorReply(error: unknown): Document {
  if (error instanceof CommandError) {
    const reply: Document = { ok: 0, errmsg: error.message, code: error.code, codeName: error.codeName, ...error.extra };
    if (error.errorLabels.length > 0) reply.errorLabels = [...error.errorLabels];
    return reply;
  }
  const message = error instanceof Error ? error.message : String(error);
  return { ok: 0, errmsg: message, code: 1, codeName: 'InternalError' };
}
