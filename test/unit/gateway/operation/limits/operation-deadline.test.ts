import { OperationStopped } from '../../../../../src/gateway/errors/internal-errors';
import { OperationDeadline, OVERRUN_MS } from '../../../../../src/gateway/operation/limits/operation-deadline';

describe('OperationDeadline', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('stops when its time is up, read from the clock when nobody listens', () => {
    const deadline = new OperationDeadline(50);
    jest.advanceTimersByTime(49);
    expect(deadline.stopped).toBe(false);
    expect(() => deadline.throwIfStopped()).not.toThrow();
    expect(deadline.remainingMs()).toBe(1);
    jest.advanceTimersByTime(1);
    expect(deadline.stopReason).toBe('timeout');
    expect(() => deadline.throwIfStopped()).toThrow(OperationStopped);
    expect(deadline.remainingMs()).toBe(1);
  });

  it('aborts its signal at the deadline once something listens, with the OperationStopped error as reason', () => {
    const deadline = new OperationDeadline(50);
    const { signal } = deadline;
    const aborted = jest.fn();
    signal.addEventListener('abort', aborted);
    jest.advanceTimersByTime(50);
    expect(aborted).toHaveBeenCalledTimes(1);
    expect(signal.reason).toBeInstanceOf(OperationStopped);
    expect((signal.reason as OperationStopped).reason).toBe('timeout');
    expect(deadline.signal).toBe(signal);
  });

  it('aborts its overrun signal OVERRUN_MS after the deadline, never for a client leaving, and not once finished', () => {
    const deadline = new OperationDeadline(50);
    const overrun = deadline.overrunSignal;
    deadline.stop('client-gone');
    jest.advanceTimersByTime(50 + OVERRUN_MS - 1);
    expect(overrun.aborted).toBe(false);
    jest.advanceTimersByTime(1);
    expect([overrun.aborted, (overrun.reason as OperationStopped).reason]).toEqual([true, 'timeout']);
    expect(deadline.overrunSignal).toBe(overrun);

    const finished = new OperationDeadline(50);
    const never = finished.overrunSignal;
    finished.finish();
    jest.advanceTimersByTime(50 + OVERRUN_MS);
    expect(never.aborted).toBe(false);
  });

  it('tells its overrun listeners when the signal aborts, at once when it has overrun, and never once they stopped listening or it finished', () => {
    const deadline = new OperationDeadline(50);
    const heard = jest.fn();
    const leftEarly = jest.fn();
    deadline.onOverrun(heard);
    deadline.onOverrun(leftEarly)();
    jest.advanceTimersByTime(50 + OVERRUN_MS - 1);
    expect(heard).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(heard.mock.calls.map(([reason]) => (reason as OperationStopped).reason)).toEqual(['timeout']);
    expect(leftEarly).not.toHaveBeenCalled();
    const late = jest.fn();
    deadline.onOverrun(late);
    expect(late).toHaveBeenCalledWith(heard.mock.calls[0]![0]);
    // A read asking for the signal after the overrun gets it aborted, with the same reason.
    expect(deadline.overrunSignal.reason).toBe(heard.mock.calls[0]![0]);

    const finished = new OperationDeadline(50);
    const never = jest.fn();
    finished.onOverrun(never);
    finished.finish();
    jest.advanceTimersByTime(50 + OVERRUN_MS);
    expect(never).not.toHaveBeenCalled();
  });

  it('aborts a signal asked for after a listener armed the overrun, at the same moment', () => {
    const deadline = new OperationDeadline(50);
    const heard = jest.fn();
    deadline.onOverrun(heard);
    jest.advanceTimersByTime(100);
    const overrun = deadline.overrunSignal;
    expect(overrun.aborted).toBe(false);
    jest.advanceTimersByTime(50 + OVERRUN_MS - 100);
    expect([overrun.aborted, heard.mock.calls.length]).toEqual([true, 1]);
    expect(overrun.reason).toBe(heard.mock.calls[0]![0]);
  });

  it('hands an aborted signal to whoever asks after it stopped', () => {
    const deadline = new OperationDeadline(50);
    deadline.stop('client-gone');
    expect(deadline.signal.aborted).toBe(true);
    expect((deadline.signal.reason as OperationStopped).reason).toBe('client-gone');
  });

  it('keeps the first reason: a client leaving after the time is up leaves it timed out, even unobserved', () => {
    const timedOut = new OperationDeadline(50);
    jest.advanceTimersByTime(60);
    timedOut.stop('client-gone');
    expect(timedOut.stopReason).toBe('timeout');

    const left = new OperationDeadline(50);
    left.stop('client-gone');
    jest.advanceTimersByTime(60);
    expect(left.stopReason).toBe('client-gone');
  });

  it('no longer runs out once finished, and its signal then never aborts by time', () => {
    const deadline = new OperationDeadline(50);
    deadline.finish();
    const { signal } = deadline;
    jest.advanceTimersByTime(100);
    expect(deadline.stopped).toBe(false);
    expect(signal.aborted).toBe(false);
    expect(jest.getTimerCount()).toBe(0);
    // A client gone after the answer still counts as gone.
    deadline.stop('client-gone');
    expect(deadline.stopReason).toBe('client-gone');
  });

  it('clears its timer when it finishes', () => {
    const deadline = new OperationDeadline(50);
    void deadline.signal;
    expect(jest.getTimerCount()).toBe(1);
    deadline.finish();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('lets go of the cost so far when it finishes, so a deadline that outlives its request holds none of it', () => {
    const deadline = new OperationDeadline(50);
    deadline.extensionsSoFar = () => ({ cost: { roundTrips: 1 } });
    expect(deadline.extensionsSoFar?.()).toEqual({ cost: { roundTrips: 1 } });
    deadline.finish();
    expect(deadline.extensionsSoFar).toBeUndefined();
  });
});
