import { parse, type OperationDefinitionNode } from 'graphql';
import { EstimateCache } from '../../../../src/gateway/estimate/estimate-cache';
import type { CostEstimate } from '../../../../src/gateway/estimate/estimate-operation';

function operationOf(query: string): OperationDefinitionNode {
  return parse(query).definitions[0] as OperationDefinitionNode;
}

describe('EstimateCache', () => {
  const estimate = (roundTrips: number) => ({ roundTrips, documents: roundTrips * 10, depth: 1 }) as unknown as CostEstimate;

  it('estimates an operation once per variables and measures', () => {
    const cache = new EstimateCache();
    const operation = operationOf('query ($n: Int) { books(first: $n) { name } }');
    const computed: string[] = [];
    const run = (variables: Record<string, unknown> | undefined, measures: string, roundTrips: number) =>
      cache.estimate(operation, variables, measures, () => {
        computed.push(`${JSON.stringify(variables)} ${measures}`);
        return estimate(roundTrips);
      });
    expect(run({ n: 1 }, '0:0', 1)).toEqual(estimate(1));
    expect(run({ n: 1 }, '0:0', 99)).toEqual(estimate(1));
    expect(run({ n: 2 }, '0:0', 2)).toEqual(estimate(2));
    expect(run({ n: 1 }, '1:0', 3)).toEqual(estimate(3));
    expect(computed).toEqual(['{"n":1} 0:0', '{"n":2} 0:0', '{"n":1} 1:0']);
  });

  it('remembers an operation that cannot be estimated (undefined), and keeps each operation apart', () => {
    const cache = new EstimateCache();
    const first = operationOf('{ a }');
    const second = operationOf('{ a }');
    let calls = 0;
    const none = () => {
      calls++;
      return undefined;
    };
    expect(cache.estimate(first, undefined, '0:0', none)).toBeUndefined();
    expect(cache.estimate(first, undefined, '0:0', none)).toBeUndefined();
    expect(cache.estimate(second, undefined, '0:0', () => estimate(4))).toEqual(estimate(4));
    expect(calls).toBe(1);
  });

  it('starts an operation over once it has seen 64 variable sets', () => {
    const cache = new EstimateCache();
    const operation = operationOf('query ($n: Int) { books(first: $n) { name } }');
    let calls = 0;
    const count = () => {
      calls++;
      return estimate(1);
    };
    for (let n = 0; n < 65; n++) cache.estimate(operation, { n }, '0:0', count);
    cache.estimate(operation, { n: 64 }, '0:0', count);
    cache.estimate(operation, { n: 0 }, '0:0', count);
    expect(calls).toBe(66);
  });
});
