import { Admission } from '../../../../src/gateway/http/admission';

describe('Admission', () => {
  it('runs up to the bound, queues first come first served, refuses past the queue, and drops a waiting request whose signal aborts', async () => {
    const admission = new Admission(1, 2);
    const never = new AbortController().signal;
    const first = await admission.enter(never);
    expect(first).toBeDefined();
    const third = new AbortController();
    const second = admission.enter(never);
    const thirdEntry = admission.enter(third.signal);
    expect(await admission.enter(never)).toBeUndefined(); // the queue is full
    expect([admission.running, admission.queued]).toEqual([1, 2]);

    // Its deadline passes (or its client leaves) while it waits: it leaves the queue at once.
    third.abort();
    expect(await thirdEntry).toBeUndefined();
    expect([admission.running, admission.queued]).toEqual([1, 1]);

    first!();
    const secondRelease = await second;
    expect(secondRelease).toBeDefined();
    expect([admission.running, admission.queued]).toEqual([1, 0]);
    secondRelease!();
    expect(admission.running).toBe(0);
    // A release counts once.
    secondRelease!();
    expect(admission.running).toBe(0);
    // An aborted signal is not admitted even with room.
    expect(await admission.enter(AbortSignal.abort())).toBeUndefined();
  });
});
