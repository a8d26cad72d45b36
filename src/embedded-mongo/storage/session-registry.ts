import type { Document } from 'bson';
import { CommandError } from '../protocol/command-error';
import type { CommittedTransaction, CommitWrites } from './collection';
import { noSuchTransaction, Transaction } from './transaction';
import type { VersionClock } from './version-clock';

export const DEFAULT_TRANSACTION_LIFETIME_MS = 60_000;

/** MongoDB's `localLogicalSessionTimeoutMinutes` (default 30): a session idle this long is forgotten. */
export const SESSION_TIMEOUT_MS = 30 * 60_000;

interface SessionState {
  txnNumber: bigint;
  /** Undefined for a session known only from a commit replayed from the journal (`committedAt`). */
  transaction: Transaction | undefined;
  /** When its transaction `txnNumber` committed, if it did. */
  committedAt?: number;
  /** The reply of its retryable write `txnNumber` (a promise while it runs), if it was one. */
  retryableReply?: Document | Promise<Document>;
  /** When it last started a transaction or a retryable write (ms since the epoch). */
  lastUsedAt: number;
}

/**
 * Logical sessions (keyed by their lsid) and the transaction each one runs. A session runs one
 * transaction at a time; starting a newer txnNumber aborts the older one, as in MongoDB.
 */
export class SessionRegistry {
  private readonly sessions = new Map<string, SessionState>();
  #lastSweepAt = Date.now();
  private nextTransactionId = 1;

  constructor(
    private readonly clock: VersionClock,
    /** How a transaction's writes are committed (Store.commitWrites). */
    private readonly commitWrites: CommitWrites,
    /** Called whenever a transaction ends, so collections can drop history no snapshot needs. */
    private readonly onTransactionEnd: () => void,
    /**
     * MongoDB's `transactionLifetimeLimitSeconds` (default 60): an open transaction older than this is
     * aborted, so a client that never commits cannot make writes outside transactions wait forever.
     */
    private readonly lifetimeLimitMs = DEFAULT_TRANSACTION_LIFETIME_MS,
  ) {}

  /** Starts the transaction `txnNumber` on a session (the command carries `startTransaction: true`). */
  start(sessionKey: string, txnNumber: bigint): Transaction {
    this.#forgetIdleSessions();
    this.refuseCommitted(sessionKey, txnNumber);
    const session = this.sessions.get(sessionKey);
    if (session !== undefined) {
      if (txnNumber < session.txnNumber) {
        throw new CommandError(
          225,
          'TransactionTooOld',
          `Cannot start transaction ${txnNumber} on session ${sessionKey} because a newer transaction ${session.txnNumber} has already started.`,
        );
      }
      if (txnNumber === session.txnNumber && session.transaction !== undefined) {
        throw new CommandError(
          117,
          'ConflictingOperationInProgress',
          `Transaction with { txnNumber: ${txnNumber} } has already been started on this session.`,
        );
      }
      this.end(session);
    }
    const commitWrites: CommitWrites = (batches) => this.commitWrites(batches, { session: sessionKey, txnNumber, at: Date.now() });
    const transaction = new Transaction(this.nextTransactionId++, txnNumber, this.clock, commitWrites);
    this.sessions.set(sessionKey, { txnNumber, transaction, lastUsedAt: Date.now() });
    const expiry = setTimeout(() => this.abortAfterError(transaction), this.lifetimeLimitMs);
    expiry.unref();
    void transaction.ended.then(() => clearTimeout(expiry));
    return transaction;
  }

  /**
   * A retryable write (a write with `txnNumber` outside a transaction) runs once per session and
   * txnNumber: the driver's retry of it after a lost reply gets the first run's reply, as MongoDB answers
   * from its record of the statements it executed, instead of writing again. An older txnNumber than the
   * session's latest is refused (225). A run that fails is not recorded: its retry runs again.
   */
  retryableWrite(sessionKey: string, txnNumber: bigint, run: () => Document | Promise<Document>): Document | Promise<Document> {
    const known = this.sessions.get(sessionKey);
    if (known !== undefined && txnNumber < known.txnNumber) {
      throw new CommandError(
        225,
        'TransactionTooOld',
        `Retryable write with txnNumber ${txnNumber} is prohibited on session ${sessionKey} because a newer retryable write with txnNumber ${known.txnNumber} has already started on this session.`,
      );
    }
    if (known?.txnNumber === txnNumber && known.retryableReply !== undefined) return known.retryableReply;
    this.#forgetIdleSessions();
    let session = known;
    if (session === undefined || txnNumber > session.txnNumber) {
      if (session !== undefined) this.end(session);
      session = { txnNumber, transaction: undefined, lastUsedAt: Date.now() };
      this.sessions.set(sessionKey, session);
    }
    const state = session;
    const reply = run();
    state.retryableReply = reply;
    if (reply instanceof Promise) {
      reply.catch(() => {
        if (state.retryableReply === reply) state.retryableReply = undefined;
      });
    }
    return reply;
  }

  /** The open transaction a continuing command (`autocommit: false`, no `startTransaction`) belongs to. */
  active(sessionKey: string, txnNumber: bigint): Transaction {
    this.refuseCommitted(sessionKey, txnNumber);
    const transaction = this.find(sessionKey, txnNumber);
    if (transaction === undefined || transaction.state !== 'active') throw noSuchTransaction(txnNumber, transaction?.state);
    return transaction;
  }

  /** An operation or an abort of a committed transaction: 256 TransactionCommitted, as in MongoDB. */
  private refuseCommitted(sessionKey: string, txnNumber: bigint): void {
    const session = this.sessions.get(sessionKey);
    if (session?.txnNumber === txnNumber && session.committedAt !== undefined) {
      throw new CommandError(256, 'TransactionCommitted', `Transaction with { txnNumber: ${txnNumber} } has been committed.`);
    }
  }

  /**
   * Commits; committing an already committed transaction again succeeds, as drivers retry commits,
   * also after a restart (a durable store replays which transaction each session committed).
   */
  commit(sessionKey: string, txnNumber: bigint): void {
    const session = this.sessions.get(sessionKey);
    if (session?.txnNumber === txnNumber && session.committedAt !== undefined) return;
    const transaction = this.find(sessionKey, txnNumber);
    if (transaction === undefined || transaction.state !== 'active') throw noSuchTransaction(txnNumber, transaction?.state);
    try {
      transaction.commit();
      session!.committedAt = Date.now();
    } finally {
      this.onTransactionEnd();
    }
  }

  /** A commit replayed from the journal, unless the session has timed out since or has moved on to a newer transaction. */
  restoreCommitted({ session: sessionKey, txnNumber, at }: CommittedTransaction): void {
    if (Date.now() - at > SESSION_TIMEOUT_MS) return;
    const known = this.sessions.get(sessionKey);
    if (known !== undefined && known.txnNumber > txnNumber) return;
    this.sessions.set(sessionKey, { txnNumber, transaction: undefined, committedAt: at, lastUsedAt: at });
  }

  /** The transaction each session last committed, if it is its latest and the session has not timed out: what a snapshot keeps. */
  *committedTransactions(): Generator<CommittedTransaction> {
    const now = Date.now();
    for (const [session, state] of this.sessions) {
      if (state.committedAt !== undefined && now - state.committedAt <= SESSION_TIMEOUT_MS) yield { session, txnNumber: state.txnNumber, at: state.committedAt };
    }
  }

  abort(sessionKey: string, txnNumber: bigint): void {
    this.refuseCommitted(sessionKey, txnNumber);
    const transaction = this.find(sessionKey, txnNumber);
    if (transaction === undefined || transaction.state !== 'active') throw noSuchTransaction(txnNumber, transaction?.state);
    transaction.abort();
    this.onTransactionEnd();
  }

  /** Aborts a transaction whose operation failed; MongoDB does the same, and the driver then retries or gives up. */
  abortAfterError(transaction: Transaction): void {
    if (transaction.state !== 'active') return;
    transaction.abort();
    this.onTransactionEnd();
  }

  /** endSessions: forget the sessions, aborting their open transactions. */
  endSessions(sessionKeys: readonly string[]): void {
    for (const key of sessionKeys) {
      const session = this.sessions.get(key);
      if (session === undefined) continue;
      this.end(session);
      this.sessions.delete(key);
    }
  }

  /**
   * Forgets, about once a minute, the sessions idle for longer than the session timeout with no open
   * transaction, as MongoDB expires them: drivers drop idle sessions without ending them, so the
   * registry would otherwise keep one entry (and its last retryable reply) per session ever seen.
   */
  #forgetIdleSessions(): void {
    const now = Date.now();
    if (now - this.#lastSweepAt < 60_000) return;
    this.#lastSweepAt = now;
    for (const [key, session] of this.sessions) {
      if (now - session.lastUsedAt > SESSION_TIMEOUT_MS && session.transaction?.state !== 'active') this.sessions.delete(key);
    }
  }

  /** Number of transactions still open (for tests and diagnostics). */
  openTransactions(): number {
    let open = 0;
    for (const session of this.sessions.values()) if (session.transaction?.state === 'active') open += 1;
    return open;
  }

  private find(sessionKey: string, txnNumber: bigint): Transaction | undefined {
    const session = this.sessions.get(sessionKey);
    return session?.txnNumber === txnNumber ? session.transaction : undefined;
  }

  private end(session: SessionState): void {
    if (session.transaction?.state === 'active') {
      session.transaction.abort();
      this.onTransactionEnd();
    }
  }
}
