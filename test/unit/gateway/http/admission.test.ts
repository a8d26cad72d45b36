import { Admission, BODY_BYTES_IN_FLIGHT } from '../../../../src/gateway/http/admission';
import { MAX_BODY_BYTES } from '../../../../src/gateway/http/read-json-body';
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

  it('lets bodies be read up to what they may buffer together, a body of unknown length counting as the largest, and none once every slot and place is taken', async () => {
    const admission = new Admission(1, 0);
    const largest = Array.from({ length: BODY_BYTES_IN_FLIGHT / MAX_BODY_BYTES }, () => admission.startReading(undefined));
    expect(largest.every((done) => done !== undefined)).toBe(true);
    expect(admission.startReading(1)).toBeUndefined();
    // A body without length (a GET) takes nothing; one declaring more than the largest counts as the largest.
    expect(admission.startReading(0)).toBeDefined();
    largest[0]!();
    largest[0]!(); // counted once
    expect(admission.startReading(5 * MAX_BODY_BYTES)).toBeDefined();
    expect(admission.startReading(1)).toBeUndefined();
    for (const done of largest.slice(1)) done!();
    expect(admission.startReading(10_000)).toBeDefined();
    // Every slot taken and no queue: answered at once, its body unread.
    const release = await admission.enter(new OperationDeadline(60_000));
    expect(admission.startReading(10)).toBeUndefined();
    release!();
    expect(admission.startReading(10)).toBeDefined();
  });
});
