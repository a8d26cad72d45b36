import { DocumentBudget } from '../../../../../src/gateway/operation/limits/document-budget';
import { OperationDeadline } from '../../../../../src/gateway/operation/limits/operation-deadline';

describe('DocumentBudget', () => {
  it('admits while the estimates fit, then first come first served as documents are given back', async () => {
    const budget = new DocumentBudget(100);
    const never = new OperationDeadline(60_000);
    const a = await budget.acquire(60, never);
    const b = await budget.acquire(40, never);
    expect(budget.inFlight).toBe(100);
    const admitted: string[] = [];
    const c = budget.acquire(50, never).then((release) => (admitted.push('c'), release));
    // d would fit after a alone, but c came first: d waits behind it.
    const d = budget.acquire(10, never).then((release) => (admitted.push('d'), release));
    expect(budget.waiting).toBe(2);
    b();
    await Promise.resolve();
    expect(admitted).toEqual([]);
    a();
    const [releaseC, releaseD] = await Promise.all([c, d]);
    expect(admitted).toEqual(['c', 'd']);
    expect(budget.inFlight).toBe(60);
    releaseC();
    releaseC(); // a release counts once
    releaseD();
    expect(budget.inFlight).toBe(0);
  });

  it('lets an estimate above the whole budget run alone, and Infinity too, at any capacity', async () => {
    for (const capacity of [100, 50]) {
      const budget = new DocumentBudget(capacity);
      const never = new OperationDeadline(60_000);
      const huge = await budget.acquire(Number.POSITIVE_INFINITY, never);
      expect(budget.inFlight).toBe(capacity);
      const small = budget.acquire(1, never);
      expect(budget.waiting).toBe(1);
      huge();
      (await small)();
      expect(budget.inFlight).toBe(0);
    }
  });

  it('lets small operations that fit go ahead of a large one held back by others, within a lane of 10% and in their own order, never over the budget', async () => {
    // Small: at most 10 documents (1%); the lane: 100 (10%).
    const budget = new DocumentBudget(1_000);
    const never = new OperationDeadline(60_000);
    const first = await budget.acquire(800, never);
    const admitted: string[] = [];
    const track = (name: string, documents: number) => budget.acquire(documents, never).then((release) => (admitted.push(name), release));
    const large = track('large', 900);
    // Passing it: 9 of 10 documents and one of 5 leave 5 of the lane.
    const passed = await Promise.all([...Array.from({ length: 9 }, () => budget.acquire(10, never)), budget.acquire(5, never)]);
    expect([budget.inFlight, budget.waiting]).toEqual([895, 1]);
    // One just above small waits; small ones behind it may still pass.
    const notSmall = track('not small', 11);
    const ten = track('ten', 10);
    // One document would fit the lane, but the ten came first: it waits too.
    const one = track('one', 1);
    expect(budget.waiting).toBe(4);
    // The five leaves: the ten takes its place and fills the lane; the one still waits.
    passed[9]!();
    const releaseTen = await ten;
    await Promise.resolve();
    expect([admitted, budget.inFlight]).toEqual([['ten'], 900]);
    passed[0]!();
    const releaseOne = await one;
    expect([admitted, budget.inFlight]).toEqual([['ten', 'one'], 891]);
    // The large one fits once the one before it is done, beside the lane (91 + 900).
    first();
    const releaseLarge = await large;
    expect([admitted, budget.inFlight]).toEqual([['ten', 'one', 'large'], 991]);
    for (const release of [...passed, releaseTen, releaseOne, releaseLarge]) release();
    (await notSmall)();
    expect([budget.inFlight, budget.waiting]).toEqual([0, 0]);
  });

  it('lets no small operation pass once only the lane holds the first one back, so it runs once the lane drains', async () => {
    const budget = new DocumentBudget(1_000);
    const never = new OperationDeadline(60_000);
    const first = await budget.acquire(800, never);
    const large = budget.acquire(950, never);
    const lane = await Promise.all(Array.from({ length: 9 }, () => budget.acquire(10, never)));
    first();
    // 90 in the lane + 950 do not fit, but nothing else holds it back: a newcomer that the lane has room for waits behind it.
    let lateAdmitted = false;
    const late = budget.acquire(10, never).then((release) => ((lateAdmitted = true), release));
    await Promise.resolve();
    expect([budget.inFlight, budget.waiting, lateAdmitted]).toEqual([90, 2, false]);
    for (const release of lane) release();
    const [releaseLarge, releaseLate] = await Promise.all([large, late]);
    expect(budget.inFlight).toBe(960);
    releaseLarge();
    releaseLate();
    expect(budget.inFlight).toBe(0);
  });

  it('rejects a waiter whose time runs out just as it starts waiting, rather than keeping it queued', async () => {
    const budget = new DocumentBudget(100);
    const holder = await budget.acquire(100, new OperationDeadline(60_000));
    const clock = jest.spyOn(Date, 'now');
    try {
      clock.mockReturnValue(1_000);
      const deadline = new OperationDeadline(50);
      // Its check before waiting sees time left; the signal made a moment later finds it gone.
      clock.mockReturnValueOnce(1_000).mockReturnValue(2_000);
      await expect(budget.acquire(10, deadline)).rejects.toThrow('did not finish within its time limit of 50 ms');
      expect(budget.waiting).toBe(0);
    } finally {
      clock.mockRestore();
      holder();
    }
  });

  it('lets no small operation pass a small one waiting first: small ones keep their order', async () => {
    const budget = new DocumentBudget(1_000);
    const never = new OperationDeadline(60_000);
    const holder = await budget.acquire(995, never);
    const admitted: string[] = [];
    const first = budget.acquire(10, never).then((release) => (admitted.push('ten'), release));
    const later = budget.acquire(1, never).then((release) => (admitted.push('one'), release));
    await Promise.resolve();
    expect([budget.waiting, admitted]).toEqual([2, []]);
    holder();
    const releases = await Promise.all([first, later]);
    expect(admitted).toEqual(['ten', 'one']);
    for (const release of releases) release();
  });

  it('keeps a small operation that does not fit what is free waiting, whatever the lane holds', async () => {
    const budget = new DocumentBudget(1_000);
    const never = new OperationDeadline(60_000);
    const holder = await budget.acquire(995, never);
    const large = budget.acquire(900, never);
    const small = budget.acquire(10, never);
    expect([budget.inFlight, budget.waiting]).toEqual([995, 2]);
    holder();
    const [releaseLarge, releaseSmall] = await Promise.all([large, small]);
    expect(budget.inFlight).toBe(910);
    releaseLarge();
    releaseSmall();
  });

  it('gives a small operation passing at capacity 50 nothing: there, only estimates of 0 documents pass', async () => {
    const budget = new DocumentBudget(50);
    const never = new OperationDeadline(60_000);
    const holder = await budget.acquire(40, never);
    const large = budget.acquire(20, never);
    // 0 documents pass; 1 is not small at this capacity and waits.
    (await budget.acquire(0, never))();
    const one = budget.acquire(1, never);
    expect(budget.waiting).toBe(2);
    holder();
    (await large)();
    (await one)();
    expect(budget.inFlight).toBe(0);
  });

  it("leaves the queue with the deadline's error when it stops, and lets the next one in", async () => {
    const budget = new DocumentBudget(100);
    const never = new OperationDeadline(60_000);
    const holder = await budget.acquire(90, never);
    const timeout = new OperationDeadline(60_000);
    const big = budget.acquire(50, timeout);
    const next = budget.acquire(5, never);
    timeout.stop('timeout');
    await expect(big).rejects.toThrow('did not finish within its time limit of 60000 ms');
    // With the big one gone, the small one behind it fits.
    (await next)();
    holder();
    expect([budget.inFlight, budget.waiting]).toEqual([0, 0]);
    const gone = new OperationDeadline(60_000);
    gone.stop('client-gone');
    await expect(budget.acquire(1, gone)).rejects.toThrow('The client closed the connection');
  });
});
