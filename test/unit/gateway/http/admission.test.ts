import { Admission, BODY_BYTES_IN_FLIGHT, type AdmissionSlot } from '../../../../src/gateway/http/admission';
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

    first!.release();
    const secondRelease = await second;
    expect(secondRelease).toBeDefined();
    expect([admission.running, admission.queued]).toEqual([1, 0]);
    secondRelease!.release();
    expect(admission.running).toBe(0);
    // A release counts once.
    secondRelease!.release();
    expect(admission.running).toBe(0);
    // A stopped operation is not admitted even with room.
    const stopped = new OperationDeadline(60_000);
    stopped.stop('client-gone');
    expect(await admission.enter(stopped)).toBeUndefined();
  });

  it('lets a request waiting for the document budget lend its slot to the next queued one, and take one back ahead of the queue', async () => {
    const admission = new Admission(1, 2);
    const never = new OperationDeadline(60_000);
    const large = (await admission.enter(never))!;
    const small = admission.enter(never);
    const later = admission.enter(never);
    expect([admission.running, admission.queued, admission.lent]).toEqual([1, 2, 0]);

    // The large one waits for documents: its slot goes to the first queued request.
    const lent = large.lend();
    const smallSlot = (await small)!;
    expect([admission.running, admission.queued, admission.lent]).toEqual([1, 1, 1]);
    // While lent, the slot counts against the queue: nobody more is held.
    expect(await admission.enter(never)).toBeUndefined();
    expect(admission.startReading()).toBeUndefined();

    // Its documents granted, it takes a slot back before the request queued earlier.
    let tookBack = false;
    const back = lent.takeBack(never).then(() => (tookBack = true));
    expect([admission.running, admission.queued, admission.lent]).toEqual([1, 2, 0]);
    smallSlot.release();
    await back;
    expect(tookBack).toBe(true);
    expect([admission.running, admission.queued]).toEqual([1, 1]);
    large.release();
    const laterSlot = (await later)!;
    expect([admission.running, admission.queued]).toEqual([1, 0]);
    laterSlot.release();
    expect(admission.running).toBe(0);
  });

  it('takes a lent slot back at once when one is free, and gives up its turn when its deadline stops or it is released while waiting', async () => {
    const admission = new Admission(1, 4);
    const never = new OperationDeadline(60_000);
    const first = (await admission.enter(never))!;
    await first.lend().takeBack(never);
    expect([admission.running, admission.lent]).toEqual([1, 0]);

    // Lent, then released without taking it back (its wait for documents stopped): nothing is held.
    first.lend();
    first.release();
    expect([admission.running, admission.lent, admission.queued]).toEqual([0, 0, 0]);

    // Waiting to take a slot back when its deadline stops: it leaves the queue, and its release then counts for nothing.
    const stopping = new OperationDeadline(60_000);
    const holder = (await admission.enter(stopping))!;
    const lent = holder.lend();
    const other = (await admission.enter(never))!;
    const refused = lent.takeBack(stopping);
    expect([admission.running, admission.queued, admission.lent]).toEqual([1, 1, 0]);
    stopping.stop('timeout');
    await expect(refused).rejects.toThrow(/time/);
    expect([admission.running, admission.queued]).toEqual([1, 0]);
    holder.release();
    expect(admission.running).toBe(1);

    // Released while it waits to take a slot back (its request ended): it leaves the queue, and no slot is taken for it.
    const otherLent = other.lend();
    const waiter = (await admission.enter(never))!;
    const abandoned = otherLent.takeBack(never);
    expect(admission.queued).toBe(1);
    other.release();
    await expect(abandoned).rejects.toThrow('the request ended while it waited to run again');
    expect([admission.running, admission.queued, admission.lent]).toEqual([1, 0, 0]);
    waiter.release();
    expect(admission.running).toBe(0);
  });

  it('holds no more than maxConcurrent + maxQueued requests, however many lend their slot, and gives slots back in the order they were asked for', async () => {
    const never = new OperationDeadline(60_000);
    const bounded = new Admission(2, 1);
    // Heavy requests each lend their slot as they wait for documents: a freed slot is taken at once only while the total allows it.
    for (let held = 0; held < 3; held++) (await bounded.enter(never))!.lend();
    expect([bounded.running, bounded.lent, bounded.queued]).toEqual([0, 3, 0]);
    expect(await bounded.enter(never)).toBeUndefined();
    expect(bounded.startReading()).toBeUndefined();

    const admission = new Admission(1, 5);
    const waiting: Array<{ name: string; lent: ReturnType<AdmissionSlot['lend']>; slot: AdmissionSlot }> = [];
    for (const name of ['W1', 'W2', 'W3']) {
      const slot = (await admission.enter(never))!;
      waiting.push({ name, slot, lent: slot.lend() });
    }
    const holder = (await admission.enter(never))!;
    const resumed: string[] = [];
    const backs = waiting.map(({ name, lent }) => lent.takeBack(never).then(() => resumed.push(name)));
    expect([admission.running, admission.queued]).toEqual([1, 3]);
    holder.release();
    for (const [index, { slot }] of waiting.entries()) {
      await backs[index];
      slot.release();
    }
    expect(resumed).toEqual(['W1', 'W2', 'W3']);
    expect([admission.running, admission.queued, admission.lent]).toEqual([0, 0, 0]);
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
    release!.release();
    expect(admission.startReading()).toBeDefined();
  });
});
