import { parse, type OperationDefinitionNode } from 'graphql';
import { EstimateCache } from '../../../../../src/gateway/operation/estimate/estimate-cache';
import type { CostEstimate } from '../../../../../src/gateway/operation/estimate/estimate-operation';
import type { OperationPlan } from '../../../../../src/gateway/operation/plan/operation-plan';

/** The cache keys by the operation's plan (one per shape): a plan of the query's operation. */
function operationOf(query: string): OperationPlan {
  return { operation: parse(query).definitions[0] as OperationDefinitionNode, fragments: {}, root: undefined, depth: 1, owned: undefined, refusal: 'not planned here' };
}

describe('EstimateCache', () => {
  const estimate = (roundTrips: number) => ({ roundTrips, documents: roundTrips * 10, depth: 1 }) as unknown as CostEstimate;

  it('estimates an operation once per value of the variables it reads, and per measures', () => {
    const cache = new EstimateCache();
    const operation = operationOf('query ($n: Int) { books(first: $n) { name } }');
    const computed: string[] = [];
    const run = (variables: Record<string, unknown>, measures: string, roundTrips: number) =>
      cache.estimate(operation, variables, measures, (read) => {
        computed.push(`${JSON.stringify(read.n)} ${measures}`);
        return estimate(roundTrips);
      });
    expect(run({ n: 1 }, '0:0', 1)).toEqual(estimate(1));
    expect(run({ n: 1 }, '0:0', 99)).toEqual(estimate(1));
    expect(run({ n: 2 }, '0:0', 2)).toEqual(estimate(2));
    expect(run({ n: 1 }, '1:0', 3)).toEqual(estimate(3));
    expect(computed).toEqual(['1 0:0', '2 0:0', '1 1:0']);
  });

  it('keeps no estimate keyed by a long value: a client sending large variables cannot fill the heap with keys', () => {
    const cache = new EstimateCache();
    const operation = operationOf('query ($symbol: String) { stocks(symbol: $symbol) { name } }');
    let calls = 0;
    const run = (symbol: string) =>
      cache.estimate(operation, { symbol }, '0:0', (read) => {
        calls++;
        return estimate(String(read.symbol).length > 10 ? 2 : 1);
      });
    const long = 'x'.repeat(5_000);
    for (let sent = 0; sent < 3; sent++) expect(run(long)).toEqual(estimate(2));
    expect(calls).toBe(3);
    for (let sent = 0; sent < 3; sent++) expect(run('ACME')).toEqual(estimate(1));
    expect(calls).toBe(4);
  });

  it('a variable the estimate does not read does not split it: one estimate for every post commented on', () => {
    const cache = new EstimateCache();
    const operation = operationOf('mutation ($postId: ID!) { addComment(postId: $postId) { id } }');
    let calls = 0;
    const count = () => {
      calls++;
      return estimate(4);
    };
    for (const postId of ['a', 'b', 'c']) expect(cache.estimate(operation, { postId }, '0:0', count)).toEqual(estimate(4));
    expect(calls).toBe(1);
  });

  it('keys each estimate on what it read, which the values may change (@skip)', () => {
    const cache = new EstimateCache();
    const operation = operationOf('query ($skip: Boolean!, $n: Int) { books(first: $n) @skip(if: $skip) { name } }');
    const reads: string[][] = [];
    const run = (variables: Record<string, unknown>) =>
      cache.estimate(operation, variables, '0:0', (read) => {
        const names = read.skip ? ['skip'] : ['skip', `n=${String(read.n)}`];
        reads.push(names);
        return estimate(read.skip ? 0 : Number(read.n));
      });
    expect(run({ skip: true, n: 1 })).toEqual(estimate(0));
    expect(run({ skip: true, n: 2 })).toEqual(estimate(0));
    expect(run({ skip: false, n: 1 })).toEqual(estimate(1));
    expect(run({ skip: false, n: 1 })).toEqual(estimate(1));
    expect(run({ skip: false, n: 2 })).toEqual(estimate(2));
    expect(run({ skip: true, n: 3 })).toEqual(estimate(0));
    expect(reads).toEqual([['skip'], ['skip', 'n=1'], ['skip', 'n=2']]);
  });

  it('keeps each operation apart', () => {
    const cache = new EstimateCache();
    const first = operationOf('{ a }');
    const second = operationOf('{ a }');
    expect(cache.estimate(first, {}, '0:0', () => estimate(1))).toEqual(estimate(1));
    expect(cache.estimate(first, {}, '0:0', () => estimate(9))).toEqual(estimate(1));
    expect(cache.estimate(second, {}, '0:0', () => estimate(4))).toEqual(estimate(4));
  });

  it('starts an operation over once it has 64 estimates', () => {
    const cache = new EstimateCache();
    const operation = operationOf('query ($n: Int) { books(first: $n) { name } }');
    let calls = 0;
    const count = (read: Readonly<Record<string, unknown>>) => {
      calls++;
      return estimate(Number(read.n));
    };
    for (let n = 0; n < 65; n++) cache.estimate(operation, { n }, '0:0', count);
    cache.estimate(operation, { n: 64 }, '0:0', count);
    cache.estimate(operation, { n: 0 }, '0:0', count);
    expect(calls).toBe(66);
  });
});
