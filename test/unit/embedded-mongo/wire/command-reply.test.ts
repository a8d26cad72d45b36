import { CommandError } from '../../../../src/embedded-mongo/protocol/command-error';
import { errorReply, successReply } from '../../../../src/embedded-mongo/wire/command-reply';

describe('successReply', () => {
  it('appends ok: 1 last, as mongod does, unless the handler set ok', () => {
    const reply = successReply({ n: 2 });
    expect(reply).toEqual({ n: 2, ok: 1 });
    expect(Object.keys(reply)).toEqual(['n', 'ok']);
    expect(successReply({ ok: 0, errmsg: 'x' })).toEqual({ ok: 0, errmsg: 'x' });
  });
});

describe('errorReply', () => {
  it('serialises a CommandError with its extra fields and labels', () => {
    const error = new CommandError(112, 'WriteConflict', 'conflict', { keyValue: { a: 1 } }, ['TransientTransactionError']);
    expect(errorReply(error)).toEqual({
      ok: 0,
      errmsg: 'conflict',
      code: 112,
      codeName: 'WriteConflict',
      keyValue: { a: 1 },
      errorLabels: ['TransientTransactionError'],
    });
    expect(errorReply(new CommandError(26, 'NamespaceNotFound', 'ns not found'))).toEqual({
      ok: 0,
      errmsg: 'ns not found',
      code: 26,
      codeName: 'NamespaceNotFound',
    });
  });

  it('turns any other exception into code 1 InternalError', () => {
    expect(errorReply(new TypeError('boom'))).toEqual({ ok: 0, errmsg: 'boom', code: 1, codeName: 'InternalError' });
    expect(errorReply('plain string')).toEqual({ ok: 0, errmsg: 'plain string', code: 1, codeName: 'InternalError' });
  });
});
