import { costLimitExceeded } from '../../../../../src/gateway/operation/cost/cost-limits';
import type { CostEstimate, FieldShare } from '../../../../../src/gateway/operation/estimate/estimate-operation';

/** The advice a COST_LIMIT_EXCEEDED message ends with: one the client can follow. */
describe('costLimitExceeded advice', () => {
  const estimateWith = (roundTrips: FieldShare, documents: FieldShare): CostEstimate => ({
    roundTrips: 4,
    documents: 200,
    depth: 4,
    responseNodes: 200,
    responseBytes: 0,
    heaviest: { roundTrips, documents, responseNodes: undefined },
  });
  const messageOf = (limit: 'roundTrips' | 'documents', estimate: CostEstimate) =>
    costLimitExceeded({ limit, estimated: limit === 'roundTrips' ? 4 : 200, max: 3 }, estimate, 'set by a test').message.replace(/^.*\(set by a test\)\. /, '');

  it('points at a field selected in several places when one accounts for more than one round trip', () => {
    expect(messageOf('roundTrips', estimateWith({ coordinate: 'Query.books', amount: 2, takesFirst: true, places: 2 }, { coordinate: 'Query.books', amount: 20, takesFirst: true, places: 2 }))).toBe(
      'Query.books accounts for the most (2 round trips): select it in fewer places (aliases, repeated levels).',
    );
  });

  it('says the fields and levels are the cost when every field accounts for one round trip, where fewer places would not help', () => {
    expect(messageOf('roundTrips', estimateWith({ coordinate: 'Query.authors', amount: 1, takesFirst: true, places: 1 }, { coordinate: 'Author.books', amount: 100, takesFirst: false, places: 1 }))).toBe(
      "No field accounts for more than one: each root field and each level of relations read by a query adds its own, so select fewer of them (a relation read inside its parent's command, by lookup, or from a snapshot copy, adds none).",
    );
    // Selected once and under the limit by itself (a page and its after anchor): the others add up past it.
    expect(messageOf('roundTrips', estimateWith({ coordinate: 'Query.items', amount: 2, takesFirst: true, places: 1 }, { coordinate: 'Query.items', amount: 6, takesFirst: true, places: 1 }))).toBe(
      "Query.items accounts for the most (2 round trips); each root field and each level of relations read by a query adds its own, so select fewer of them (a relation read inside its parent's command, by lookup, or from a snapshot copy, adds none).",
    );
  });

  it('says a field that alone takes more round trips than the limit needs a higher limit (a mutation\'s writes)', () => {
    expect(messageOf('roundTrips', estimateWith({ coordinate: 'Mutation.addComment', amount: 4, takesFirst: false, places: 1 }, { coordinate: 'Mutation.addComment', amount: 3, takesFirst: false, places: 1 }))).toBe(
      'Mutation.addComment accounts for the most (4 round trips), more than the limit by itself: the limit is below what that field alone takes.',
    );
  });

  it('counts a single document in the singular', () => {
    expect(messageOf('documents', estimateWith({ coordinate: 'Query.authors', amount: 1, takesFirst: true, places: 1 }, { coordinate: 'Book.publisher', amount: 1, takesFirst: false, places: 1 }))).toBe(
      'Book.publisher accounts for the most (1 document): it takes no first, so ask for fewer items above it (a smaller first on a list above) or select it at fewer levels.',
    );
  });
});
