import { GraphQLError } from 'graphql';
import { budgetClient, ClientBudgets, costPoints } from '../../../../../src/gateway/operation/limits/client-budgets';

function refusal(run: () => unknown): GraphQLError {
  try {
    run();
  } catch (error) {
    return error as GraphQLError;
  }
  throw new Error('expected a refusal');
}

describe('ClientBudgets', () => {
  let now = 0;
  const budgets = () => new ClientBudgets({ capacity: 100, restoreRate: 10 }, () => now);

  beforeEach(() => {
    now = 0;
  });

  it('takes the estimate, gives back what the measure did not spend, and refills by the second up to the capacity', () => {
    const subject = budgets();
    const charge = subject.take('subject:ann', 60);
    expect(subject.status('subject:ann')).toEqual({ maximumAvailable: 100, currentlyAvailable: 40, restoreRate: 10 });
    charge.settle(25);
    charge.settle(0);
    expect(subject.status('subject:ann').currentlyAvailable).toBe(75);
    now = 1_500;
    expect(subject.status('subject:ann').currentlyAvailable).toBe(90);
    now = 60_000;
    expect(subject.status('subject:ann').currentlyAvailable).toBe(100);
    expect(subject.status('subject:bob').currentlyAvailable).toBe(100);
  });

  it('refuses with 429 THROTTLED and the seconds until enough is back; a cost above the capacity can never run', () => {
    const subject = budgets();
    subject.take('address:10.0.0.1', 95);
    const throttled = refusal(() => subject.take('address:10.0.0.1', 30));
    expect(throttled.message).toBe('Throttled: this operation needs 30 points and 5 of 100 are available; try again in 3 s');
    expect(throttled.extensions).toMatchObject({ code: 'THROTTLED', cost: { requestedPoints: 30, throttleStatus: { currentlyAvailable: 5 } }, http: { status: 429 } });
    expect([...(throttled.extensions.http as { headers: Map<string, string> }).headers]).toEqual([['retry-after', '3']]);
    expect(refusal(() => subject.take('address:10.0.0.2', 101)).extensions).toMatchObject({ code: 'COST_LIMIT_EXCEEDED', http: { status: 400 } });
  });

  it('charges a measure above the estimate, never below an empty bucket', () => {
    const subject = budgets();
    subject.take('subject:ann', 90).settle(150);
    expect(subject.status('subject:ann').currentlyAvailable).toBe(0);
  });

  it('counts a point per round trip and per document', () => {
    expect(costPoints({ roundTrips: 3, documents: 40 })).toBe(43);
  });
});

describe('budgetClient', () => {
  it('keeps a viewer by its subject, an anonymous one by its IPv4 address or its IPv6 /64', () => {
    expect(budgetClient('ann', '10.0.0.1')).toBe('subject:ann');
    expect(budgetClient(undefined, '10.0.0.1')).toBe('address:10.0.0.1');
    expect(budgetClient(undefined, '::ffff:10.0.0.1')).toBe('address:10.0.0.1');
    expect(budgetClient(undefined, '2001:db8:a:b:1:2:3:4')).toBe('address:2001:db8:a:b::/64');
    expect(budgetClient(undefined, '2001:0db8:000a:000b::99')).toBe('address:2001:db8:a:b::/64');
    expect(budgetClient(undefined, '2001:db8::1')).toBe('address:2001:db8:0:0::/64');
    expect(budgetClient(undefined, undefined)).toBe('address:local');
  });
});
