import { CostLedger } from '../../../../src/gateway/cost/cost-ledger';

describe('CostLedger', () => {
  it('sums commands per request and per collection, and attributes them to the fields that took part', () => {
    const ledger = new CostLedger();
    ledger.field('Book.publisher', 'join').keys(50);
    const authors = ledger.field('Book.authors', 'snapshot');
    authors.snapshotMisses(120);
    authors.keys(120);
    authors.dangling(0);
    ledger.recordCommand({ collection: 'books', commandName: 'find', fields: ['Query.books'], documents: 50, bytes: 9000, durationMs: 1.25, ok: true });
    ledger.recordCommand({ collection: 'publishers', commandName: 'find', fields: ['Book.publisher'], documents: 20, bytes: 1000, durationMs: 0.5, ok: true });
    ledger.recordCommand({ collection: 'authors', commandName: 'find', fields: ['Book.authors', 'Book.publisher'], documents: 90, bytes: 5000, durationMs: 0.75, ok: true });
    ledger.field('Book.authors', 'snapshot').dangling(2);

    expect(ledger.report()).toEqual({
      roundTrips: 3,
      documents: 160,
      bytes: 15000,
      durationMs: 2.5,
      fields: {
        'Book.authors': { strategy: 'snapshot', roundTrips: 1, documents: 0, keys: 120, snapshotHits: 0, snapshotMisses: 120, dangling: 2 },
        'Book.publisher': { strategy: 'join', roundTrips: 2, documents: 0, keys: 50 },
      },
      collections: {
        books: { roundTrips: 1, documents: 50 },
        publishers: { roundTrips: 1, documents: 20 },
        authors: { roundTrips: 1, documents: 90 },
      },
    });
    expect(ledger.commands.map((command) => command.collection)).toEqual(['books', 'publishers', 'authors']);
  });

  it('reports zero for a request that sent nothing', () => {
    expect(new CostLedger().report()).toEqual({ roundTrips: 0, documents: 0, bytes: 0, durationMs: 0, fields: {}, collections: {} });
  });
});
