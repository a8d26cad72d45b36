import { nextStopSignal } from '../../../src/command-line/stop-signal';

/**
 * The stop signal: the first SIGINT or SIGTERM resolves it; the same signal again (a process group
 * signalled, reaching the server directly and through npm) is only reported; Ctrl-C pressed again a
 * second later ends the process at once; `cancel` leaves no listener behind. The signals are emitted on
 * `process` (nothing is sent to the test's own process), and `process.exit` is watched, not let through.
 */
const listeners = () => [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')];

afterEach(() => jest.useRealTimers());

it('resolves with the first signal and only reports a repeated SIGTERM, however late', async () => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  const before = listeners();
  const repeats: string[] = [];
  const stop = nextStopSignal({ onRepeat: (signal) => repeats.push(signal) });
  try {
    process.emit('SIGTERM', 'SIGTERM');
    expect(await stop.signal).toBe('SIGTERM');
    process.emit('SIGTERM', 'SIGTERM');
    jest.advanceTimersByTime(5_000);
    process.emit('SIGTERM', 'SIGTERM');
    expect(repeats).toEqual(['SIGTERM', 'SIGTERM']);
  } finally {
    stop.cancel();
  }
  expect(listeners()).toEqual(before);
});

it('takes a SIGINT delivered twice at once (npm forwarding Ctrl-C) as one, and ends the process on Ctrl-C pressed again later', async () => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  const before = listeners();
  const exit = jest.spyOn(process, 'exit').mockImplementation(() => undefined as never);
  const repeats: string[] = [];
  const stop = nextStopSignal({ onRepeat: (signal) => repeats.push(signal) });
  try {
    process.emit('SIGINT', 'SIGINT');
    expect(await stop.signal).toBe('SIGINT');
    process.emit('SIGINT', 'SIGINT');
    expect([repeats, exit.mock.calls]).toEqual([['SIGINT'], []]);
    jest.advanceTimersByTime(1_500);
    process.emit('SIGINT', 'SIGINT');
    expect(exit.mock.calls).toEqual([[130]]);
    expect(listeners()).toEqual(before);
  } finally {
    stop.cancel();
    exit.mockRestore();
  }
});
