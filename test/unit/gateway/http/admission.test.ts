import { Admission } from '../../../../src/gateway/http/admission';
import { OperationDeadline } from '../../../../src/gateway/operation/limits/operation-deadline';

describe('Admission', () => {
  it('runs up to the bound, queues first come first served, refuses past the queue, and drops a waiting request whose deadline stops it', async () => {
    const admission = new Admission(1, 2);
    const never = new OperationDeadline(60_000);
    const first = await admission.enter(never);
    expect(first).toBeDefined();
    const third = new OperationDeadline(60_000);
    const second = admission.enter(never);
    const thirdEntry = admission.enter(third);
    expect(await admission.enter(never)).toBeUndefined(); // the queue is full
    expect([admission.running, admission.queued]).toEqual([1, 2]);

    // Its deadline passes (or its client leaves) while it waits: it leaves the queue at once.
    third.stop('timeout');
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
    // A stopped operation is not admitted even with room.
    const stopped = new OperationDeadline(60_000);
    stopped.stop('client-gone');
    expect(await admission.enter(stopped)).toBeUndefined();
  });
});
