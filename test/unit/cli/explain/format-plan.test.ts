import { OperationTypeNode } from 'graphql';
import type { CostReport } from '../../../../src/gateway/request/cost/cost-ledger';
import { DEFAULT_COST_LIMITS } from '../../../../src/gateway/operation/cost/cost-limits';
import { formatPlan } from '../../../../src/cli/explain/format-plan';
import type { OperationPlan } from '../../../../src/cli/explain/plan-operation';

const plan: OperationPlan = { operationType: OperationTypeNode.QUERY, operationName: 'Twice', estimate: { roundTrips: 1, documents: 1, depth: 1, responseNodes: 1, responseBytes: 0 }, rows: [], steps: new Map() };
const cost = (extra: Partial<CostReport>): CostReport => ({
  roundTrips: 2,
  documents: 2,
  bytes: 100,
  durationMs: 1.5,
  estimatedRoundTrips: 1,
  estimatedDocuments: 1,
  naiveRoundTrips: 2,
  fields: {},
  collections: {},
  ...extra,
});

describe('explain --run on an operation that cost more than its estimate', () => {
  it('flags each measure over it, with both numbers', () => {
    const printed = formatPlan(plan, DEFAULT_COST_LIMITS, {}, { where: 'embedded demo data', cost: cost({ estimateExceeded: ['roundTrips', 'documents'] }), errors: [], executed: true }).split('\n');
    expect(printed).toContain('ESTIMATE EXCEEDED: measured 2 round trips against 1, and 2 documents against 1 estimated (extensions.cost.estimateExceeded; please report it with this operation)');
  });

  it('prints no flag when the report has none', () => {
    expect(formatPlan(plan, DEFAULT_COST_LIMITS, {}, { where: 'embedded demo data', cost: cost({ roundTrips: 1, documents: 1 }), errors: [], executed: true })).not.toContain('ESTIMATE EXCEEDED');
  });
});

describe('explain --run on an operation refused before it ran', () => {
  it('says so, with the estimate a limit refused, and blames no backfill for the difference from the plan', () => {
    const refused = (estimatedRoundTrips: number) =>
      formatPlan(plan, DEFAULT_COST_LIMITS, {}, { where: 'embedded demo data', cost: cost({ roundTrips: 0, documents: 0, estimatedRoundTrips }), errors: [], executed: false });
    // By a role: nothing was estimated.
    expect(refused(0).split('\n')).toContain('measured on embedded demo data: 0 round trips (refused before it ran), 0 documents, 100 bytes, 1.5 ms; one query per parent would have sent 2');
    // By a limit on its estimate.
    expect(refused(3).split('\n')).toContain('measured on embedded demo data: 0 round trips (refused before it ran, on an estimate of 3), 0 documents, 100 bytes, 1.5 ms; one query per parent would have sent 2');
    expect(refused(0) + refused(3)).not.toContain('backfilled');
  });
});

