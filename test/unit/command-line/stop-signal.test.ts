import { nextStopSignal } from '../../../src/command-line/stop-signal';

/**
 * The stop signal: the first SIGINT or SIGTERM resolves it; a repeated SIGTERM (a process group
 * signalled, reaching the server directly and through npm) is only reported, a second SIGINT ends the
 * process at once, and `cancel` leaves no listener behind. The signals are emitted on `process`
 * (nothing is sent to the test's own process), and `process.kill` is watched, not let through.
 */
const listeners = () => [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];

it('resolves with the first signal and only reports a repeated SIGTERM', async () => {
  const before = listeners();
  const repeats: string[] = [];
  const stop = nextStopSignal({ onRepeat: (signal) => repeats.push(signal) });
  process.emit('SIGTERM', 'SIGTERM');
  expect(await stop.signal).toBe('SIGTERM');
  process.emit('SIGTERM', 'SIGTERM');
  process.emit('SIGTERM', 'SIGTERM');
  expect(repeats).toEqual(['SIGTERM', 'SIGTERM']);
  stop.cancel();
  expect(listeners()).toEqual(before);
});

it('ends the process on a second SIGINT, with its own listeners gone so the default action applies', async () => {
  const before = listeners();
  const kill = jest.spyOn(process, 'kill').mockImplementation(() => true);
  try {
    const stop = nextStopSignal();
    process.emit('SIGINT', 'SIGINT');
    expect(await stop.signal).toBe('SIGINT');
    expect(kill).not.toHaveBeenCalled();
    process.emit('SIGINT', 'SIGINT');
    expect(kill.mock.calls).toEqual([[process.pid, 'SIGINT']]);
    expect(listeners()).toEqual(before);
  } finally {
    kill.mockRestore();
  }
});
