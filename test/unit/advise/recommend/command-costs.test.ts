import { ASSUMED_COSTS, commandCosts } from '../../../../src/advise/recommend/command-costs';
import type { CommandTimes, WorkloadSummary } from '../../../../src/gateway/workload/workload-types';

function summary(commands: CommandTimes, operations = { queries: 90, mutations: 10 }): WorkloadSummary {
  return {
    windows: 1,
    start: undefined,
    end: undefined,
    operations: { query: { count: operations.queries, roundTrips: 150, documents: 0, bytes: 0 }, mutation: { count: operations.mutations, roundTrips: 30, documents: 0, bytes: 0 } },
    fields: [],
    mutations: [{ field: 'Mutation.x', runs: 10, failed: 0, attempts: 10, roundTrips: 30, documentsModified: 500, fanOut: [], atomicRuns: 10, changes: [], changesOther: 0, untrackedRuns: 0 }],
    commands,
  };
}
const timed = (commands: number, ms: number, documents = commands) => ({ commands, ms, documents });

describe('commandCosts', () => {
  it('prices a read, a write and a further document from the times recorded', () => {
    // 0.5 ms a read, 1 ms a one-document write; 10 updates of 50 documents took 59 ms: 0.1 ms a further document.
    const costs = commandCosts(summary({ operations: 100, reads: timed(150, 75), singleWrites: timed(10, 10), multiWrites: timed(10, 59, 500), others: timed(10, 5) }));
    expect(costs).toEqual({ readMs: 0.5, writeMs: 1, documentMs: 0.1, totalMs: 149, source: 'measured' });
  });

  it('prices a copy at a fiftieth of a write at least, when the times cannot tell them apart', () => {
    expect(commandCosts(summary({ operations: 100, reads: timed(150, 75), singleWrites: timed(10, 10), multiWrites: timed(10, 5, 500), others: timed(10, 5) })).documentMs).toBe(0.02);
  });

  it('scales the time of the operations timed to all of them, when older windows were not', () => {
    expect(commandCosts(summary({ operations: 50, reads: timed(75, 37.5), singleWrites: timed(5, 5), multiWrites: timed(0, 0, 0), others: timed(5, 2.5) })).totalMs).toBe(90);
  });

  it('reads writes too fast to register (whole milliseconds) as unmeasured: a write then costs a read', () => {
    const costs = commandCosts(summary({ operations: 100, reads: timed(150, 75), singleWrites: timed(10, 0), multiWrites: timed(0, 0, 0), others: timed(10, 0) }));
    expect([costs.writeMs, costs.documentMs]).toEqual([0.5, 0.2]);
  });

  it('assumes its costs for a workload recorded without times: from its round trips and documents written', () => {
    const none = timed(0, 0, 0);
    expect(commandCosts(summary({ operations: 0, reads: none, singleWrites: none, multiWrites: none, others: none }))).toEqual({
      readMs: ASSUMED_COSTS.commandMs,
      writeMs: ASSUMED_COSTS.commandMs,
      documentMs: ASSUMED_COSTS.documentMs,
      totalMs: 180 * ASSUMED_COSTS.commandMs + 500 * ASSUMED_COSTS.documentMs,
      source: 'assumed',
    });
  });

  it('assumes its costs when asked to, whatever times were recorded', () => {
    const costs = commandCosts(summary({ operations: 100, reads: timed(150, 75), singleWrites: timed(10, 10), multiWrites: timed(10, 59, 500), others: timed(10, 5) }), { assumed: true });
    expect(costs).toEqual({ readMs: 1, writeMs: 1, documentMs: 0.2, totalMs: 180 * 1 + 500 * 0.2, source: 'assumed' });
  });
});
