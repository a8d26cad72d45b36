import { Admission, BODY_BYTES_IN_FLIGHT } from '../../../../src/gateway/http/admission';
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

  it('takes bodies as their bytes arrive, up to what they may buffer together, and reads none once every slot and place is taken', async () => {
    const admission = new Admission(1, 0);
    // Bodies declared but not sent hold nothing: any number may wait for their bytes.
    const stalled = Array.from({ length: 1_000 }, () => admission.startReading());
    expect(stalled.every((reading) => reading !== undefined)).toBe(true);
    const [first, second] = [admission.startReading()!, admission.startReading()!];
    expect(first.take(BODY_BYTES_IN_FLIGHT - 10)).toBe(true);
    expect(second.take(11)).toBe(false);
    expect(second.take(10)).toBe(true);
    expect(stalled[0]!.take(1)).toBe(false);
    // What a body took is free again once it is read, once.
    first.release();
    first.release();
    expect(stalled[0]!.take(BODY_BYTES_IN_FLIGHT - 10)).toBe(true);
    expect(first.take(1)).toBe(false);
    second.release();
    stalled[0]!.release();
    expect(admission.startReading()!.take(BODY_BYTES_IN_FLIGHT)).toBe(true);
    // Every slot taken and no queue: answered at once, its body unread.
    const release = await admission.enter(new OperationDeadline(60_000));
    expect(admission.startReading()).toBeUndefined();
    release!();
    expect(admission.startReading()).toBeDefined();
  });
});
