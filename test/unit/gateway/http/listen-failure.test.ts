import { CannotListenError, listenFailure, PortInUseError } from '../../../../src/gateway/http/listen-failure';

/** Node's listen errors for each reason, as the `error` event gives them (the tests run as root here, so EACCES cannot be provoked). */
function listenError(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`listen ${code}`), { code });
}

describe('listenFailure', () => {
  it('names the fix for each reason the address cannot be listened on, and passes any other error through', () => {
    expect(listenFailure(listenError('EADDRINUSE'), 4000, undefined)).toEqual(new PortInUseError(4000));
    const unresolved = listenFailure(listenError('ENOTFOUND'), 4000, 'gateway.internal');
    expect(unresolved).toBeInstanceOf(CannotListenError);
    expect(unresolved.message).toBe('server.host "gateway.internal": the name does not resolve to an address (ENOTFOUND); set server.host to an address of this machine, "0.0.0.0" for all of them, or "localhost"');
    const privileged = listenFailure(listenError('EACCES'), 80, undefined);
    expect(privileged).toBeInstanceOf(CannotListenError);
    expect(privileged.message).toBe('port 80: this process may not listen on it (EACCES; ports below 1024 need privileges); choose a port from 1024 up (PORT=… or --port …) and map it in front if clients need a low one');
    const other = listenError('EMFILE');
    expect(listenFailure(other, 4000, undefined)).toBe(other);
  });
});
