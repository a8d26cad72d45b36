import { Admission } from '../../../../src/gateway/http/admission';

describe('Admission', () => {
  it('runs up to the bound, queues first come first served, refuses past the queue, and skips a request whose client left', async () => {
    const admission = new Admission(1, 2);
    const first = await admission.enter(() => false);
    expect(first).toBeDefined();
    let clientGone = false;
    const second = admission.enter(() => false);
    const third = admission.enter(() => clientGone);
    expect(await admission.enter(() => false)).toBeUndefined(); // the queue is full
    expect([admission.running, admission.queued]).toEqual([1, 2]);

    first!();
    const secondRelease = await second;
    expect(secondRelease).toBeDefined();
    expect([admission.running, admission.queued]).toEqual([1, 1]);

    clientGone = true;
    secondRelease!();
    expect(await third).toBeUndefined();
    expect([admission.running, admission.queued]).toEqual([0, 0]);
    // A release counts once.
    secondRelease!();
    expect(admission.running).toBe(0);
  });
});
