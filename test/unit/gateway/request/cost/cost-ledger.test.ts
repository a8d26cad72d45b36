import { CostLedger } from '../../../../../src/gateway/request/cost/cost-ledger';

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

    expect(ledger.report({ estimatedRoundTrips: 4, estimatedDocuments: 200 })).toEqual({
      roundTrips: 3,
      documents: 160,
      bytes: 15000,
      durationMs: 2.5,
      estimatedRoundTrips: 4,
      estimatedDocuments: 200,
      naiveRoundTrips: 1 + 1 + 1, // the root find + one parent per field that asked for keys
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

  describe('the same facts in another order give the same report (issue 15)', () => {
    const command = (collection: string, documents: number) => ({ collection, commandName: 'find', fields: [`Query.${collection}`], documents, bytes: 10, durationMs: 0, ok: true });

    it('collections are listed by name, not in the order their replies arrived', () => {
      const early = new CostLedger();
      early.recordCommand(command('books', 6));
      early.recordCommand(command('authors', 4));
      const late = new CostLedger();
      late.recordCommand(command('authors', 4));
      late.recordCommand(command('books', 6));
      expect(JSON.stringify(early.report())).toBe(JSON.stringify(late.report()));
      expect(Object.keys(late.report().collections)).toEqual(['authors', 'books']);
    });

    it('a field resolved by aliases with different strategies names the one that reads most, whichever resolved first', () => {
      // An embedded copy hands a filter to its join (strategyForRequest): one alias embedded, the other join.
      const reports = (['embedded', 'join'] as const).map((first) => {
        const ledger = new CostLedger();
        const second = first === 'embedded' ? 'join' : 'embedded';
        ledger.field('Author.recentBooks', first).keys(first === 'join' ? 4 : 0);
        ledger.field('Author.recentBooks', second).keys(second === 'join' ? 4 : 0);
        return JSON.stringify(ledger.report());
      });
      expect(reports[0]).toBe(reports[1]);
      expect(JSON.parse(reports[0]!).fields).toEqual({ 'Author.recentBooks': { strategy: 'join', roundTrips: 0, documents: 0, keys: 4 } });
    });

    it("a field entry's keys come in one order, whichever fact was recorded first", () => {
      const danglingFirst = new CostLedger();
      danglingFirst.field('Book.authors', 'join').dangling(1);
      danglingFirst.field('Book.authors', 'snapshot').snapshotHits(3);
      const snapshotFirst = new CostLedger();
      snapshotFirst.field('Book.authors', 'snapshot').snapshotHits(3);
      snapshotFirst.field('Book.authors', 'join').dangling(1);
      expect(JSON.stringify(danglingFirst.report())).toBe(JSON.stringify(snapshotFirst.report()));
      expect(snapshotFirst.report().fields['Book.authors']).toEqual({ strategy: 'join', roundTrips: 0, documents: 0, keys: 0, snapshotHits: 3, snapshotMisses: 0, dangling: 1 });
    });
  });

  it('reports zero for a request that sent nothing', () => {
    expect(new CostLedger().report()).toEqual({ roundTrips: 0, documents: 0, bytes: 0, durationMs: 0, estimatedRoundTrips: 0, estimatedDocuments: 0, naiveRoundTrips: 0, fields: {}, collections: {} });
  });

  describe('naiveRoundTrips', () => {
    it('counts one query per parent that had keys to look up, one per root command, and no getMores', () => {
      const ledger = new CostLedger();
      for (const keys of [2, 0, 1, 3]) ledger.field('Author.books', 'join').keys(keys); // 3 parents with keys
      ledger.field('Book.authors', 'snapshot').snapshotHits(5); // hits query nothing
      ledger.field('Post.recentComments', 'embedded');
      ledger.recordCommand({ collection: 'authors', commandName: 'find', fields: ['Query.authors'], documents: 4, bytes: 1, durationMs: 0, ok: true });
      ledger.recordCommand({ collection: 'authors', commandName: 'getMore', fields: ['Query.authors'], documents: 1, bytes: 1, durationMs: 0, ok: true });
      ledger.recordCommand({ collection: 'posts', commandName: 'find', fields: ['Query.posts'], documents: 1, bytes: 1, durationMs: 0, ok: true });
      ledger.recordCommand({ collection: 'books', commandName: 'find', fields: ['Author.books'], documents: 6, bytes: 1, durationMs: 0, ok: true });
      expect(ledger.naiveRoundTrips()).toBe(3 + 2);
      expect(ledger.report().roundTrips).toBe(4);
    });
  });

  describe('the commands view', () => {
    it('lists commands with their filter shape, fields, documents and rounded duration, only when asked', () => {
      const ledger = new CostLedger();
      ledger.recordCommand({ collection: 'logMessages', commandName: 'aggregate', fields: ['Host.logs'], documents: 15, bytes: 900, durationMs: 1.23456, ok: true, filter: { 'host.id': { $in: '?' } } });
      ledger.recordCommand({ collection: 'logMessages', commandName: 'getMore', fields: ['Host.logs'], documents: 2, bytes: 90, durationMs: 0.5, ok: true, filter: { 'host.id': { $in: '?' } } });
      ledger.recordCommand({ collection: 'hosts', commandName: 'listIndexes', fields: ['Query.hosts'], documents: 0, bytes: 10, durationMs: 0.1, ok: false });
      expect(ledger.report().commands).toBeUndefined();
      expect(ledger.report({ commands: true }).commands).toEqual([
        { collection: 'logMessages', command: 'aggregate', filter: { 'host.id': { $in: '?' } }, fields: ['Host.logs'], documents: 15, durationMs: 1.235 },
        { collection: 'logMessages', command: 'getMore', filter: { 'host.id': { $in: '?' } }, fields: ['Host.logs'], documents: 2, durationMs: 0.5 },
        { collection: 'hosts', command: 'listIndexes', fields: ['Query.hosts'], documents: 0, durationMs: 0.1 },
      ]);
    });
  });
});
