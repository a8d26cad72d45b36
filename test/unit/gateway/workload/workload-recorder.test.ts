import type { GraphQLRequestContextWillSendResponse, GraphQLRequestListener } from '@apollo/server';
import { CostLedger, type CommandRecord } from '../../../../src/gateway/request/cost/cost-ledger';
import { parseWorkloadWindow, WorkloadFormatError } from '../../../../src/gateway/workload/parse-workload-window';
import { sumWorkload } from '../../../../src/gateway/workload/read-workload';
import { WorkloadCapture, type WorkloadSink } from '../../../../src/gateway/workload/workload-capture';
import { ApolloServerPluginDocjoinWorkload } from '../../../../src/gateway/workload/workload-plugin';
import { WorkloadRecorder } from '../../../../src/gateway/workload/workload-recorder';
import type { FieldWorkload, WorkloadWindow } from '../../../../src/gateway/workload/workload-types';

const UNTIMED = { commands: 0, ms: 0, documents: 0 };

function command(collection: string, fields: string[], documents: number, bytes: number, extra: Partial<CommandRecord> = {}): CommandRecord {
  return { collection, commandName: 'find', fields, documents, bytes, durationMs: 1, ok: true, ...extra };
}

/** `{ books { publisher { name } authors { name countOfBooks } } }` on 2 books: a snapshot miss, two joins. */
function booksLedger(): CostLedger {
  const ledger = new CostLedger();
  ledger.recordCommand(command('books', ['Query.books'], 2, 400));
  // One resolver call per book and field; the loaders then add the documents to the last one's recorder.
  const countOfBooks = Object.freeze(['countOfBooks']);
  const resolved = [3, 2].map((authors) => {
    const publisher = ledger.field('Book.publisher', 'join');
    publisher.keys(1);
    publisher.delivered(1);
    const author = ledger.field('Book.authors', 'snapshot');
    author.snapshotMisses(authors, countOfBooks);
    author.keys(authors);
    author.delivered(authors);
    return { publisher, author };
  });
  resolved[1]!.publisher.documents(2);
  resolved[1]!.author.documents(5);
  ledger.recordCommand(command('publishers', ['Book.publisher'], 2, 100));
  ledger.recordCommand(command('authors', ['Book.authors'], 5, 300));
  return ledger;
}

const noMisses = { missing: [], missingOther: { operations: 0, misses: 0 }, selections: [], selectionsOther: 0 };
const zeros = { operations: 0, resolves: 0, roundTrips: 0, documents: 0, bytes: 0, keys: 0, snapshotHits: 0, snapshotMisses: 0, dangling: 0 };

function field(entry: Partial<FieldWorkload> & Pick<FieldWorkload, 'field' | 'strategy'>): FieldWorkload {
  return { ...zeros, ...noMisses, ...entry, delivered: entry.delivered ?? entry.documents ?? 0, parentDocuments: entry.parentDocuments ?? entry.resolves ?? 0, soleRoundTrips: entry.soleRoundTrips ?? entry.roundTrips ?? 0 };
}

describe('WorkloadRecorder', () => {
  it('folds an operation\'s ledger: per field and strategy its reads, snapshot misses by missing fields, documents and bytes', () => {
    const recorder = new WorkloadRecorder();
    recorder.record('query', booksLedger());
    const window = recorder.take()!;
    expect(window.start.getTime()).toBeLessThanOrEqual(window.end.getTime());
    expect({ ...window, start: undefined, end: undefined }).toEqual({
      docjoinWorkload: 1,
      start: undefined,
      end: undefined,
      operations: { query: { count: 1, roundTrips: 3, documents: 9, bytes: 800 }, mutation: { count: 0, roundTrips: 0, documents: 0, bytes: 0 } },
      fields: [
        field({
          field: 'Book.authors',
          strategy: 'snapshot',
          operations: 1,
          resolves: 2,
          roundTrips: 1,
          documents: 5,
          bytes: 300,
          keys: 5,
          snapshotMisses: 5,
          missing: [{ fields: ['countOfBooks'], operations: 1, misses: 5 }],
        }),
        field({ field: 'Book.publisher', strategy: 'join', operations: 1, resolves: 2, roundTrips: 1, documents: 2, bytes: 100, keys: 2 }),
      ],
      mutations: [],
      // Three finds of 1 ms each.
      commands: { operations: 1, reads: { commands: 3, ms: 3, documents: 9 }, singleWrites: UNTIMED, multiWrites: UNTIMED, others: UNTIMED },
    });
  });

  it('counts a command two fields shared in both their round trips, and in neither one\'s sole round trips', () => {
    const ledger = new CostLedger();
    ledger.field('Post.comments', 'join');
    ledger.field('Post.commentsAggregate', 'join');
    // The page of comments and the aggregate's count in one aggregate command, then the aggregate alone.
    ledger.recordCommand(command('comments', ['Post.comments', 'Post.commentsAggregate'], 4, 100));
    ledger.recordCommand(command('comments', ['Post.commentsAggregate'], 1, 50));
    const recorder = new WorkloadRecorder();
    recorder.record('query', ledger);
    const entries = recorder.take()!.fields.map(({ field, roundTrips, soleRoundTrips }) => ({ field, roundTrips, soleRoundTrips }));
    expect(entries).toEqual([
      { field: 'Post.comments', roundTrips: 1, soleRoundTrips: 0 },
      { field: 'Post.commentsAggregate', roundTrips: 2, soleRoundTrips: 1 },
    ]);
  });

  it('adds operations up; a field read with another strategy is another entry; an operation counts once per missing set', () => {
    const recorder = new WorkloadRecorder();
    recorder.record('query', booksLedger());
    recorder.record('query', booksLedger());
    const joined = new CostLedger();
    joined.field('Book.authors', 'join').keys(4);
    // Two aliases lacking the same fields (two arrays), and one lacking others.
    const hits = new CostLedger();
    hits.field('Book.authors', 'snapshot').snapshotHits(7);
    hits.field('Book.authors', 'snapshot').snapshotMisses(2, ['countOfBooks']);
    hits.field('Book.authors', 'snapshot').snapshotMisses(1, ['countOfBooks']);
    hits.field('Book.authors', 'snapshot').snapshotMisses(0, ['books', 'countOfBooks']);
    recorder.record('query', joined);
    recorder.record('query', hits);
    const { fields, operations } = recorder.take()!;
    expect(operations.query).toEqual({ count: 4, roundTrips: 6, documents: 18, bytes: 1600 });
    expect(fields.map(({ field, strategy, operations, resolves, snapshotHits, snapshotMisses, missing }) => ({ field, strategy, operations, resolves, snapshotHits, snapshotMisses, missing }))).toEqual([
      { field: 'Book.authors', strategy: 'join', operations: 1, resolves: 1, snapshotHits: 0, snapshotMisses: 0, missing: [] },
      {
        field: 'Book.authors',
        strategy: 'snapshot',
        operations: 3,
        resolves: 2 + 2 + 4,
        snapshotHits: 7,
        snapshotMisses: 5 + 5 + 3,
        missing: [
          { fields: ['books', 'countOfBooks'], operations: 1, misses: 0 },
          { fields: ['countOfBooks'], operations: 3, misses: 13 },
        ],
      },
      { field: 'Book.publisher', strategy: 'join', operations: 2, resolves: 4, snapshotHits: 0, snapshotMisses: 0, missing: [] },
    ]);
  });

  it('keeps at most maxMissingSets sets per field and strategy in a window, counting the rest as missingOther', () => {
    const recorder = new WorkloadRecorder({ maxMissingSets: 2 });
    for (const names of [['a'], ['b'], ['c'], ['a'], ['d']]) {
      const ledger = new CostLedger();
      ledger.field('Book.authors', 'snapshot').snapshotMisses(10, names);
      recorder.record('query', ledger);
    }
    const [authors] = recorder.take()!.fields;
    expect(authors!.missing).toEqual([
      { fields: ['a'], operations: 2, misses: 20 },
      { fields: ['b'], operations: 1, misses: 10 },
    ]);
    expect(authors!.missingOther).toEqual({ operations: 2, misses: 20 });
    expect(authors!.snapshotMisses).toBe(50);
  });

  it('records each mutation\'s write units under its Mutation field: runs, failures, attempts, fan-out and the sources changed', () => {
    const ledger = new CostLedger();
    const rename = ledger.recordWriteUnit({ atomic: true, field: 'Mutation.renameAuthor' });
    rename.startAttempt();
    // A first attempt's change, run again: counted once.
    rename.noteSourceChange({ typeName: 'Author', fields: ['name'], id: 7 });
    rename.startAttempt();
    rename.noteSourceChange({ typeName: 'Author', fields: ['name'], id: 7 });
    ledger.recordCommand(command('authors', ['Mutation.renameAuthor'], 0, 50, { commandName: 'update', writeUnit: rename.tag, documentsModified: 1 }));
    ledger.recordCommand(command('books', ['Mutation.renameAuthor'], 0, 50, { commandName: 'update', writeUnit: rename.tag, documentsModified: 10 }));
    ledger.recordCommand(command('$cmd', ['Mutation.renameAuthor'], 0, 10, { commandName: 'commitTransaction', writeUnit: rename.tag, documentsModified: 0 }));
    rename.finish('committed');
    const failed = ledger.recordWriteUnit({ atomic: true, field: 'Mutation.renameAuthor' });
    failed.startAttempt();
    failed.noteSourceChange({ typeName: 'Author', fields: ['name'], id: 8 });
    ledger.recordCommand(command('authors', ['Mutation.renameAuthor'], 0, 50, { commandName: 'update', writeUnit: failed.tag, documentsModified: 1 }));
    failed.finish('failed');
    const recorder = new WorkloadRecorder();
    recorder.record('mutation', ledger);
    const window = recorder.take()!;
    expect(window.operations.mutation).toEqual({ count: 1, roundTrips: 4, documents: 0, bytes: 160 });
    expect(window.mutations).toEqual([
      {
        field: 'Mutation.renameAuthor',
        runs: 2,
        failed: 1,
        attempts: 3,
        roundTrips: 4,
        // The rolled-back unit's update does not stand.
        documentsModified: 11,
        fanOut: [
          { collection: 'authors', documentsModified: 1 },
          { collection: 'books', documentsModified: 10 },
        ],
        atomicRuns: 2,
        // Nor does its change of author 8.
        changes: [{ typeName: 'Author', fields: ['name'], documents: 1, sample: [{ id: '{"id":{"$numberInt":"7"}}', changes: 1 }] }],
        changesOther: 0,
        untrackedRuns: 0,
      },
    ]);
    // Updates of one document and of more, and the commit, each timed apart.
    expect(window.commands).toEqual({
      operations: 1,
      reads: { commands: 0, ms: 0, documents: 0 },
      singleWrites: { commands: 2, ms: 2, documents: 2 },
      multiWrites: { commands: 1, ms: 1, documents: 10 },
      others: { commands: 1, ms: 1, documents: 0 },
    });
  });

  it('take starts a new window from zero; nothing recorded, nothing to take; restore puts a window back', () => {
    const recorder = new WorkloadRecorder();
    expect(recorder.take()).toBeUndefined();
    recorder.record('query', booksLedger());
    const first = recorder.take()!;
    expect(recorder.isEmpty).toBe(true);
    expect(recorder.take()).toBeUndefined();
    recorder.record('query', booksLedger());
    recorder.restore(first);
    const both = recorder.take()!;
    expect(both.start).toEqual(first.start);
    expect(both.operations.query.count).toBe(2);
    expect(both.fields.find((entry) => entry.strategy === 'snapshot')!.missing).toEqual([{ fields: ['countOfBooks'], operations: 2, misses: 10 }]);
  });
});

describe('stored windows', () => {
  function windowOf(...ledgers: CostLedger[]): WorkloadWindow {
    const recorder = new WorkloadRecorder();
    for (const ledger of ledgers) recorder.record('query', ledger);
    return recorder.take()!;
  }

  it('read back from JSON as written, and summed', () => {
    const first = windowOf(booksLedger());
    const second = windowOf(booksLedger(), booksLedger());
    const stored = [first, second].map((window, index) => parseWorkloadWindow(JSON.parse(JSON.stringify(window)), `w.jsonl:${index + 1}`));
    expect(stored).toEqual([first, second]);
    const { operations, fields, mutations, commands } = windowOf(booksLedger(), booksLedger(), booksLedger());
    expect(sumWorkload(stored)).toEqual({ windows: 2, start: first.start, end: second.end, operations, fields, mutations, commands });
    const none = { count: 0, roundTrips: 0, documents: 0, bytes: 0 };
    const untimed = { commands: 0, ms: 0, documents: 0 };
    expect(sumWorkload([])).toEqual({
      windows: 0,
      start: undefined,
      end: undefined,
      operations: { query: none, mutation: none },
      fields: [],
      mutations: [],
      commands: { operations: 0, reads: untimed, singleWrites: untimed, multiWrites: untimed, others: untimed },
    });
  });

  it('reads windows recorded before command times and source changes were: no operation timed, every run untracked and atomic', () => {
    const window = JSON.parse(JSON.stringify(windowOf(booksLedger())));
    delete window.commands;
    window.mutations = [{ field: 'Mutation.renameAuthor', runs: 2, failed: 0, attempts: 2, roundTrips: 6, documentsModified: 3, fanOut: [] }];
    const parsed = parseWorkloadWindow(window, 'w.jsonl:1');
    expect(parsed.commands).toMatchObject({ operations: 0, reads: { commands: 0, ms: 0, documents: 0 } });
    expect(parsed.mutations[0]).toMatchObject({ atomicRuns: 2, changes: [], changesOther: 0, untrackedRuns: 2 });
  });

  it.each([
    ['parent documents', 'parentDocuments', 'resolves'],
    ['sole round trips', 'soleRoundTrips', 'roundTrips'],
  ] as const)('reads fields recorded before %s were with the figure they stood for then', (_, counted, before) => {
    const window = JSON.parse(JSON.stringify(windowOf(booksLedger())));
    for (const field of window.fields) delete field[counted];
    const parsed = parseWorkloadWindow(window, 'w.jsonl:1');
    expect(parsed.fields.some((field) => field[before] > 0)).toBe(true);
    for (const field of parsed.fields) expect(field[counted]).toBe(field[before]);
  });

  it('refuses what is not a window, saying where and what', () => {
    expect(() => parseWorkloadWindow({ hello: 1 }, 'w.jsonl:3')).toThrow(new WorkloadFormatError('w.jsonl:3: not a docjoin workload window of format 1 (docjoinWorkload is undefined)'));
    const window = JSON.parse(JSON.stringify(windowOf(booksLedger())));
    window.fields[0].snapshotMisses = -1;
    expect(() => parseWorkloadWindow(window, 'w.jsonl:1')).toThrow(new WorkloadFormatError('w.jsonl:1: fields[0].snapshotMisses must be a whole number, got -1'));
    // Commands a field sent alone are among those it took part in.
    const sole = JSON.parse(JSON.stringify(windowOf(booksLedger())));
    sole.fields[0].soleRoundTrips = sole.fields[0].roundTrips + 1;
    expect(() => parseWorkloadWindow(sole, 'w.jsonl:2')).toThrow(new WorkloadFormatError(`w.jsonl:2: fields[0].soleRoundTrips must be at most its roundTrips (${sole.fields[0].roundTrips}), got ${sole.fields[0].roundTrips + 1}`));
  });
});

describe('ApolloServerPluginDocjoinWorkload', () => {
  type Context = { ledger: CostLedger };
  async function respond(recorder: WorkloadRecorder, options: { executed: boolean; operation: 'query' | 'mutation' | 'subscription' }): Promise<void> {
    const plugin = ApolloServerPluginDocjoinWorkload<Context>({ recorder });
    const listener = (await plugin.requestDidStart!({} as never)) as GraphQLRequestListener<Context>;
    // A response has data (null included) exactly when execution started.
    const singleResult = options.executed ? { data: null } : { errors: [{ message: 'rejected' }] };
    const request = { operation: { operation: options.operation }, contextValue: { ledger: booksLedger() }, response: { body: { kind: 'single', singleResult } } };
    await listener.willSendResponse!(request as unknown as GraphQLRequestContextWillSendResponse<Context>);
  }

  it('records executed queries and mutations only (not one rejected before execution)', async () => {
    const recorder = new WorkloadRecorder();
    await respond(recorder, { executed: false, operation: 'query' });
    await respond(recorder, { executed: true, operation: 'subscription' });
    expect(recorder.isEmpty).toBe(true);
    await respond(recorder, { executed: true, operation: 'query' });
    await respond(recorder, { executed: true, operation: 'mutation' });
    expect(recorder.take()!.operations).toEqual({ query: { count: 1, roundTrips: 3, documents: 9, bytes: 800 }, mutation: { count: 1, roundTrips: 3, documents: 9, bytes: 800 } });
  });

  it('a recording that fails leaves the response alone and goes to onError', async () => {
    const errors: unknown[] = [];
    const plugin = ApolloServerPluginDocjoinWorkload<Context>({ recorder: new WorkloadRecorder(), onError: (error) => errors.push(error) });
    const listener = (await plugin.requestDidStart!({} as never)) as GraphQLRequestListener<Context>;
    const request = { operation: { operation: 'query' }, contextValue: { ledger: undefined }, response: { body: { kind: 'single', singleResult: { data: {} } } } };
    await expect(listener.willSendResponse!(request as unknown as GraphQLRequestContextWillSendResponse<Context>)).resolves.toBeUndefined();
    expect(errors).toHaveLength(1);
  });
});

describe('WorkloadCapture', () => {
  /** A sink that keeps what it is given, and fails while `failing` is set. */
  function memorySink(): WorkloadSink & { windows: WorkloadWindow[]; failing: boolean } {
    return {
      target: 'memory',
      windows: [],
      failing: false,
      async check() {},
      async write(window) {
        if (this.failing) throw new Error('disk full');
        this.windows.push(window);
      },
    };
  }

  it('flushes the counts since the last flush, nothing when nothing ran; a failed write is carried into the next', async () => {
    const sink = memorySink();
    const errors: unknown[] = [];
    const capture = new WorkloadCapture(sink, 3_600_000, (error) => errors.push(error));
    await capture.start();
    await capture.flush();
    expect(sink.windows).toHaveLength(0);

    capture.recorder.record('query', booksLedger());
    sink.failing = true;
    await expect(capture.flush()).rejects.toThrow('could not write the workload to memory: disk full');
    sink.failing = false;
    capture.recorder.record('query', booksLedger());
    await capture.flush();
    expect(sink.windows.map((window) => window.operations.query.count)).toEqual([2]);

    capture.recorder.record('query', booksLedger());
    sink.failing = true;
    await capture.stop(); // the last window: its failure is reported, not thrown
    expect(errors).toEqual([new Error('could not write the workload to memory: disk full')]);
  });
});
