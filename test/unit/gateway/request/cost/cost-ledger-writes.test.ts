import { CostLedger, type CommandRecord, type WriteUnitRecord } from '../../../../../src/gateway/request/cost/cost-ledger';

/** A write-unit command as the funnel records it: tagged with the unit's attempt at the time it is sent. */
function send(ledger: CostLedger, unit: WriteUnitRecord, commandName: string, collection: string, documentsModified: number): void {
  const command: CommandRecord = { collection, commandName, fields: ['Mutation.addComment'], documents: 0, bytes: 0, durationMs: 0, ok: true, writeUnit: unit.tag, documentsModified };
  ledger.recordCommand(command);
}

/** One attempt of addComment: find the post, insert the comment, update the post, then commit or abort. */
function addCommentAttempt(ledger: CostLedger, unit: WriteUnitRecord, end: 'commitTransaction' | 'abortTransaction'): void {
  unit.startAttempt();
  send(ledger, unit, 'find', 'posts', 0);
  send(ledger, unit, 'insert', 'comments', 1);
  send(ledger, unit, 'update', 'posts', end === 'commitTransaction' ? 1 : 0);
  send(ledger, unit, end, '$cmd', 0);
}

describe('extensions.cost.writes', () => {
  it('a retried transaction: every attempt\'s round trips, only the committed attempt\'s documents', () => {
    const ledger = new CostLedger();
    const unit = ledger.recordWriteUnit({ atomic: true });
    addCommentAttempt(ledger, unit, 'abortTransaction');
    addCommentAttempt(ledger, unit, 'abortTransaction');
    addCommentAttempt(ledger, unit, 'commitTransaction');
    unit.finish('committed');
    expect(ledger.report().writes).toEqual({ roundTrips: 12, documentsModified: 2, fanOut: { comments: 1, posts: 1 }, atomic: true, attempts: 3 });
  });

  it('a rolled-back transaction: nothing modified stands', () => {
    const ledger = new CostLedger();
    const unit = ledger.recordWriteUnit({ atomic: true });
    unit.startAttempt();
    send(ledger, unit, 'update', 'authors', 1);
    send(ledger, unit, 'abortTransaction', '$cmd', 0);
    unit.finish('failed');
    expect(ledger.report().writes).toEqual({ roundTrips: 2, documentsModified: 0, fanOut: { authors: 0 }, atomic: true, attempts: 1 });
  });

  it('without a transaction a failed unit\'s writes stand; several units add up', () => {
    const ledger = new CostLedger();
    const failed = ledger.recordWriteUnit({ atomic: false });
    failed.startAttempt();
    send(ledger, failed, 'update', 'authors', 1);
    failed.finish('failed');
    const done = ledger.recordWriteUnit({ atomic: false });
    done.startAttempt();
    send(ledger, done, 'update', 'authors', 1);
    send(ledger, done, 'update', 'books', 4);
    done.finish('committed');
    expect(ledger.report().writes).toEqual({ roundTrips: 3, documentsModified: 6, fanOut: { authors: 2, books: 4 }, atomic: false, attempts: 2 });
  });

  it('retriedAttempts: the commands and documents of the attempts that ran again, which the estimate check leaves out', () => {
    const ledger = new CostLedger();
    ledger.recordCommand({ collection: 'posts', commandName: 'find', fields: ['Query.posts'], documents: 5, bytes: 0, durationMs: 0, ok: true });
    const unit = ledger.recordWriteUnit({ atomic: true });
    const read = (documents: number) => ledger.recordCommand({ collection: 'posts', commandName: 'find', fields: ['Mutation.addComment'], documents, bytes: 0, durationMs: 0, ok: true, writeUnit: unit.tag });
    unit.startAttempt();
    read(1);
    send(ledger, unit, 'abortTransaction', '$cmd', 0);
    unit.startAttempt();
    read(1);
    send(ledger, unit, 'insert', 'comments', 1);
    send(ledger, unit, 'abortTransaction', '$cmd', 0);
    addCommentAttempt(ledger, unit, 'commitTransaction');
    unit.finish('committed');
    // Attempts 1 and 2: 2 + 3 commands, 2 documents read; attempt 3 (4 commands) and the query's find stay measured.
    expect(ledger.retriedAttempts()).toEqual({ roundTrips: 5, documents: 2 });
    expect(ledger.report()).toMatchObject({ roundTrips: 10, documents: 7 });
  });

  it('retriedAttempts is zero when every unit ran once, and for a unit still on its first attempt', () => {
    const ledger = new CostLedger();
    const unit = ledger.recordWriteUnit({ atomic: true });
    addCommentAttempt(ledger, unit, 'commitTransaction');
    unit.finish('committed');
    expect(ledger.retriedAttempts()).toEqual({ roundTrips: 0, documents: 0 });
  });

  it('mayRetry: retried attempts may spend what the round-trip limit leaves above the estimate', () => {
    const ledger = new CostLedger();
    // Estimate 5 (one attempt of 4, a read back of 1), limit 13: 8 round trips for retried attempts.
    ledger.limitRoundTrips({ estimated: 5, max: 13 });
    const unit = ledger.recordWriteUnit({ atomic: true });
    addCommentAttempt(ledger, unit, 'abortTransaction');
    expect(ledger.mayRetry(unit)).toBe(true); // attempt 1 retried: 4
    addCommentAttempt(ledger, unit, 'abortTransaction');
    expect(ledger.mayRetry(unit)).toBe(true); // attempts 1 and 2: 8
    addCommentAttempt(ledger, unit, 'abortTransaction');
    expect(ledger.mayRetry(unit)).toBe(false); // 12 > 8
  });

  it('mayRetry: another unit\'s retried attempts spend from the same allowance; without a limit, always', () => {
    const ledger = new CostLedger();
    ledger.limitRoundTrips({ estimated: 10, max: 16 });
    const first = ledger.recordWriteUnit({ atomic: true });
    addCommentAttempt(ledger, first, 'abortTransaction');
    addCommentAttempt(ledger, first, 'commitTransaction');
    first.finish('committed');
    const second = ledger.recordWriteUnit({ atomic: true });
    addCommentAttempt(ledger, second, 'abortTransaction');
    expect(ledger.mayRetry(second)).toBe(false); // 4 + 4 > 6

    const unlimited = new CostLedger();
    const unit = unlimited.recordWriteUnit({ atomic: true });
    for (let attempt = 0; attempt < 20; attempt++) addCommentAttempt(unlimited, unit, 'abortTransaction');
    expect(unlimited.mayRetry(unit)).toBe(true);
  });

  it('a read-only operation has no writes entry', () => {
    expect(new CostLedger().report().writes).toBeUndefined();
  });
});
