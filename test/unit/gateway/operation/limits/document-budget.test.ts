import { DocumentBudget } from '../../../../../src/gateway/operation/limits/document-budget';
import { OperationDeadline } from '../../../../../src/gateway/operation/limits/operation-deadline';
import { SaturatedThroughput } from '../../../../../src/gateway/operation/limits/saturated-throughput';

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

  it('lets an estimate above the whole budget run alone, and Infinity too', async () => {
    const budget = new DocumentBudget(100);
    const never = new OperationDeadline(60_000);
    const huge = await budget.acquire(Number.POSITIVE_INFINITY, never);
    expect(budget.inFlight).toBe(100);
    const small = budget.acquire(1, never);
    expect(budget.waiting).toBe(1);
    huge();
    (await small)();
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

  it('refuses with 503 OVERLOADED, when it asks or once the rate is known, an operation whose turn comes after its deadline at the rate documents come back', async () => {
    let now = 0;
    const budget = new DocumentBudget(100, new SaturatedThroughput(() => now));
    const never = new OperationDeadline(60_000);
    const a = await budget.acquire(100, never);
    const b = budget.acquire(100, never);
    const c = budget.acquire(100, never);
    // Queued while no rate was known: its 0.8 s will not be enough for the 100 documents ahead of its turn once c runs, at the rate below.
    const hurried = budget.acquire(100, new OperationDeadline(800));
    now = 1_000;
    a();
    const releaseB = await b;
    now = 2_000;
    // 200 documents back in 2 s of waiting: 0.1 per ms.
    releaseB();
    const releaseC = await c;
    await expect(hurried).rejects.toMatchObject({ extensions: { code: 'OVERLOADED', http: { status: 503, headers: new Map([['retry-after', '1']]) } } });
    expect(budget.waiting).toBe(0);
    // Asking now: 100 documents ahead take 1 s, more than 0.5 s and less than 60 s.
    await expect(budget.acquire(100, new OperationDeadline(500))).rejects.toMatchObject({ extensions: { code: 'OVERLOADED' } });
    const patient = budget.acquire(100, never);
    expect(budget.waiting).toBe(1);
    releaseC();
    (await patient)();
    expect(budget.inFlight).toBe(0);
  });
});
