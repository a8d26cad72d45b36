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

  it('lets an estimate above the budget less its small lane run alone among the large ones, and Infinity too', async () => {
    const budget = new DocumentBudget(100);
    const never = new OperationDeadline(60_000);
    const huge = await budget.acquire(Number.POSITIVE_INFINITY, never);
    expect(budget.inFlight).toBe(90);
    const large = budget.acquire(20, never);
    expect(budget.waiting).toBe(1);
    huge();
    (await large)();
    expect(budget.inFlight).toBe(0);
  });

  it('lets a small operation that fits go ahead of a large one waiting, within its lane, and the large one in once those before it are done', async () => {
    // Small: at most 10 documents (1%); the lane: 100 (10%); a large one takes at most 900.
    const budget = new DocumentBudget(1_000);
    const never = new OperationDeadline(60_000);
    const first = await budget.acquire(800, never);
    const admitted: string[] = [];
    const large = budget.acquire(900, never).then((release) => (admitted.push('large'), release));
    // Passing it: ten small ones fill the lane; the eleventh waits, and so does one just above small.
    const small = await Promise.all(Array.from({ length: 10 }, () => budget.acquire(10, never)));
    expect([budget.inFlight, budget.waiting]).toEqual([900, 1]);
    const eleventh = budget.acquire(10, never).then((release) => (admitted.push('eleventh'), release));
    const notSmall = budget.acquire(11, never).then((release) => (admitted.push('not small'), release));
    expect(budget.waiting).toBe(3);
    // A small one leaves the lane: the eleventh takes its place, ahead of the large one.
    small[0]!();
    const releaseEleventh = await eleventh;
    expect(admitted).toEqual(['eleventh']);
    // The large one fits once the one before it is done, whatever the small lane holds (100 + 900).
    first();
    const releaseLarge = await large;
    expect(admitted).toEqual(['eleventh', 'large']);
    expect(budget.inFlight).toBe(1_000);
    for (const release of [...small, releaseEleventh, releaseLarge]) release();
    (await notSmall)();
    expect([budget.inFlight, budget.waiting]).toEqual([0, 0]);
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
