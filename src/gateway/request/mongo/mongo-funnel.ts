import { randomBytes } from 'node:crypto';
import {
  BSON,
  MongoClient,
  MongoError,
  MongoNetworkError,
  MongoServerError,
  MongoErrorLabel,
  type ClientSession,
  type CommandFailedEvent,
  type CommandStartedEvent,
  type CommandSucceededEvent,
  type Db,
  type Document,
} from 'mongodb';
import type { CostLedger, WriteAttemptTag, WriteUnitRecord } from '../cost/cost-ledger';
import { commandFilterShape, commandLookupShapes, type FilterShape, type LookupShape } from '../cost/filter-shape';
import { DEFAULT_MONGO_TIMEOUT_MS, serverSelectionTimeout } from '../../../settings/setting-rules';
import { DatabaseFailure, InvariantError, OperationStopped, TransactionConflict, RETRYABLE_READ_CODES } from '../../errors/internal-errors';
import type { OperationDeadline } from '../../operation/limits/operation-deadline';
import { FunnelWriter, SESSION_COMMANDS } from './funnel-writer';
import type { IndexDescription } from '../../documents/index-description';
import { indexesThroughViews } from './indexes-through-views';
import type { StoredDocument } from '../../documents/stored-document';
import { scopedFilter, scopedPipeline, type ReadScope } from '../access/scope-read-command';
import { readServerVersion } from './server-version';
import { keyString } from '../../documents/key-string';
import type { DocumentSample } from '../../startup/storage-map/check-sampled-documents';
import { collectionListingOf, type CollectionListing } from '../../startup/storage-map/collection-listing';

/**
 * What every command of one request carries: its ledger; for reads the deadline they must keep, and
 * the row filters of its viewer's access rules (added to every find and aggregate sent for it).
 */
export interface RequestScope {
  readonly ledger: CostLedger;
  readonly deadline?: OperationDeadline;
  readonly readScope?: ReadScope;
}

/** Who a command is for: the request (ledger, deadline) and the `Type.field`s whose loads it serves. */
export interface CommandScope extends RequestScope {
  readonly fields: readonly string[];
  /** The command belongs to this write unit of a mutation (extensions.cost.writes). */
  readonly writeUnit?: WriteUnitRecord;
}

/** What bounds one read in time: MongoDB stops it at `maxTimeMS`; the driver abandons it on `signal`. */
interface ReadLimits {
  readonly maxTimeMS?: number;
  readonly signal?: AbortSignal;
}

export interface FindOptions {
  readonly projection: Record<string, unknown>;
  readonly sort?: Record<string, 1 | -1>;
  readonly limit?: number;
  /**
   * The most documents the answer can hold. A read sent as one command asks for a whole reply anyway;
   * read again through the driver's cursor, it asks for one more per reply, so that the first reply
   * also tells it the cursor is exhausted (a reply that exactly fills its batch leaves the cursor open
   * on MongoDB, costing an empty getMore).
   */
  readonly batchSize?: number;
}

/** Decides whether a write unit's transaction runs again after a transient error (writes/transaction-retries.ts). */
export interface TransactionRetryGate {
  /** `failedAttempts` attempts failed and were aborted: resolves true once the next may start (after its backoff), or false to stop. */
  retryAfter(failedAttempts: number): Promise<boolean>;
}

interface InflightOperation {
  readonly scope: CommandScope;
  readonly collection: string;
  /** Set by the operation's first command; its getMores repeat it in the debug view. */
  filter?: FilterShape;
  /** The same command's `$lookup`s, each with what it selected by. */
  lookups?: readonly LookupShape[];
  /** Whether the two above were read off its first command. */
  described?: boolean;
}

const COMMENT_PREFIX = 'docjoin:';
/** The server's answer to creating a collection that exists. */
const NAMESPACE_EXISTS = 48;

/**
 * The mongo funnel (with funnel-writer.ts, the only gateway code that imports `mongodb`). Every gateway command goes through it.
 *
 * Attribution: each operation gets a unique `comment` (`docjoin:<funnel>:<n>`); the driver copies it onto the
 * command and onto every `getMore` of its cursor. Command monitoring events carry the command, so the
 * listener maps comment → operation → request ledger, whatever interleaving concurrent requests cause.
 */
export class MongoFunnel {
  readonly #client: MongoClient;
  readonly #db: Db;
  /** The client's own BSON options (useBigInt64, promoteValues…), for the documents of reads. */
  readonly #decodeOptions: BSON.DeserializeOptions;
  readonly #inflight = new Map<string, InflightOperation>();
  /** Write units by session id: commitTransaction/abortTransaction carry no comment, only the lsid. */
  readonly #sessions = new Map<string, InflightOperation>();
  /** Started commands by connection + wire request id, until they succeed or fail. */
  readonly #started = new Map<string, StartedCommand>();
  /** Unique per funnel, so that several gateways can share one client without mixing their counts. */
  readonly #commentPrefix = `${COMMENT_PREFIX}${randomBytes(4).toString('hex')}:`;
  #nextOperation = 0;
  #lastAnswerAt = 0;
  #readScopesRequired = false;
  /** Each told once of the next answer to any command of this client (pingOrAnyAnswer). */
  readonly #answerWaiters = new Set<() => void>();

  constructor(client: MongoClient, db: Db) {
    if (client.options.monitorCommands !== true) {
      throw new TypeError('MongoFunnel needs a MongoClient created with { monitorCommands: true } (use connectMongo(uri)); without it round trips cannot be counted');
    }
    this.#client = client;
    this.#db = db;
    this.#decodeOptions = { ...db.bsonOptions, raw: false };
    client.on('commandStarted', this.#onStarted);
    client.on('commandSucceeded', this.#onSucceeded);
    client.on('topologyClosed', this.#forgetAnswers);
    client.on('commandFailed', this.#onFailed);
  }

  get databaseName(): string {
    return this.#db.databaseName;
  }

  /**
   * Under access rules every request read must carry its viewer's scope: a read without one (a resolver
   * building its own scope) fails instead of reading rows the viewer may not see.
   */
  requireReadScopes(): void {
    this.#readScopesRequired = true;
  }

  #unscoped(collection: string): never {
    throw new InvariantError(`a read of ${collection} without the request's access scope; read through context.documents or context.loaders`);
  }

  async find(scope: CommandScope, collection: string, requested: StoredDocument, options: FindOptions): Promise<StoredDocument[]> {
    if (!scope.readScope && this.#readScopesRequired) this.#unscoped(collection);
    const filter = scope.readScope ? scopedFilter(scope.readScope, collection, requested) : requested;
    const shape = {
      projection: options.projection,
      ...(options.sort && { sort: options.sort }),
      ...(options.limit !== undefined && { limit: options.limit }),
    };
    return this.#run(scope, collection, (comment, limits) =>
      this.#readInOneReply(collection, { find: collection, filter, ...shape, batchSize: WHOLE_REPLY }, comment, limits, () =>
        this.#db
          .collection(collection)
          .find(filter, { ...shape, ...(options.batchSize !== undefined && { batchSize: replyBatchSize(options.batchSize) }), ...limits(), comment, raw: true })
          .toArray()
          .then((documents) => this.#decodeBatch(documents)),
      ),
    );
  }

  async aggregate(scope: CommandScope, collection: string, requested: readonly StoredDocument[], options: { batchSize?: number } = {}): Promise<StoredDocument[]> {
    if (!scope.readScope && this.#readScopesRequired) this.#unscoped(collection);
    const pipeline = scope.readScope ? scopedPipeline(scope.readScope, collection, requested) : requested;
    return this.#run(scope, collection, (comment, limits) =>
      this.#readInOneReply(collection, { aggregate: collection, pipeline, cursor: { batchSize: WHOLE_REPLY } }, comment, limits, () =>
        this.#db
          .collection(collection)
          .aggregate(pipeline as Document[], { ...(options.batchSize !== undefined && { batchSize: replyBatchSize(options.batchSize) }), ...limits(), comment, raw: true })
          .toArray()
          .then((documents) => this.#decodeBatch(documents)),
      ),
    );
  }

  /**
   * A read sent as one find or aggregate command that asks for its whole answer in one reply (nearly
   * every answer fits: MongoDB stops a reply at 16 MiB). The driver's cursors cost a small read a fifth
   * of its CPU here, and what they guarantee is kept here too. A read failed by a failover or a lost
   * connection is sent once more, to the server selected again, as the driver's retryable reads
   * do (once: a second failure ends the read, so an outage costs MongoDB at most two sends of it). A
   * getMore must go to the server that holds the cursor, so an answer that needs a second reply is
   * read again through `byDriverCursor`, after the cursor its first reply left open is killed (on
   * another mongos or secondary the kill misses, and MongoDB drops the idle cursor after 10 minutes).
   * Any other error, and a stop, ends the read. Every command counts in the cost report.
   *
   * The command takes what a cursor would take from the database: its read preference and read concern.
   * Its reply comes raw: command monitoring decodes each reply for its event, and only the cursor's
   * envelope is decoded there; each document is decoded once, here, with the client's own BSON options
   * (useBigInt64, promoteValues…).
   */
  async #readInOneReply(collection: string, command: Document, comment: string, limits: () => ReadLimits, byDriverCursor: () => Promise<StoredDocument[]>, sentBefore = false): Promise<StoredDocument[]> {
    const { maxTimeMS, signal } = limits();
    // A killCursors must come in the session of the command that opened the cursor.
    const session = this.#client.startSession({ causalConsistency: false });
    const ended = () => session.endSession().catch(() => undefined);
    const readPreference = this.#db.readPreference;
    const readConcern = this.#db.readConcern?.level;
    let cursor: CursorReply;
    try {
      const reply = await this.#db.command(
        { ...command, ...(readConcern && { readConcern: { level: readConcern } }), ...(maxTimeMS !== undefined && { maxTimeMS }), comment },
        { readPreference, session, raw: true, ...(signal && { signal }) },
      );
      cursor = this.#cursorOf(reply);
    } catch (error) {
      void ended();
      if (sentBefore || signal?.aborted || !this.#mayReadAgain(error)) throw error;
      return this.#readInOneReply(collection, command, comment, limits, byDriverCursor, true);
    }
    if (isClosedCursor(cursor.id)) {
      void ended();
      return this.#decodeBatch(cursor.firstBatch);
    }
    const killed = this.#db
      .command({ killCursors: collection, cursors: [asInt64(cursor.id)], comment }, { readPreference, session })
      .catch(() => undefined)
      .finally(ended);
    const [, documents] = await Promise.all([killed, byDriverCursor()]);
    return documents;
  }

  /**
   * Whether the driver would retry a read that failed with `error` (the retryable reads specification:
   * a network error, or a code saying the server stepped down, shut down or could not be reached),
   * which only happens when the client retries reads.
   */
  #mayReadAgain(error: unknown): boolean {
    if (this.#client.options.retryReads === false) return false;
    return error instanceof MongoNetworkError || (error instanceof MongoServerError && typeof error.code === 'number' && RETRYABLE_READ_CODES.has(error.code));
  }

  /** A raw reply's cursor envelope, its batch left as raw documents. */
  #cursorOf(reply: Document): CursorReply {
    return BSON.deserialize(reply.cursor as Uint8Array, RAW_BATCH) as CursorReply;
  }

  #decodeBatch(batch: readonly unknown[] | undefined): StoredDocument[] {
    const options = this.#decodeOptions;
    return (batch ?? []).map((document) => BSON.deserialize(document as Uint8Array, options));
  }

  /** The collection's size from its metadata (not attributed to any request). */
  estimatedDocumentCount(collection: string): Promise<number> {
    return this.#db.collection(collection).estimatedDocumentCount();
  }

  /** An aggregate for startup statistics (not attributed to any request). */
  aggregateStatistics(collection: string, pipeline: readonly StoredDocument[]): Promise<StoredDocument[]> {
    return this.#db.collection(collection).aggregate(pipeline as Document[]).toArray();
  }

  /**
   * Documents of one of docjoin's own collections (`docjoin_migrations`), read at startup and then
   * periodically (not attributed to any request); none when the collection does not exist.
   */
  readMetadata(collection: string, filter: StoredDocument): Promise<StoredDocument[]> {
    return this.#db.collection(collection).find(filter as Document).toArray();
  }

  /** Empty when the user may not list databases. */
  async listDatabaseNames(): Promise<string[]> {
    try {
      const { databases } = await this.#db.admin().listDatabases({ nameOnly: true });
      return databases.map((database) => database.name);
    } catch {
      return [];
    }
  }

  /**
   * The indexes of `collection`; of a view, those of the collection it is a view on (MongoDB reads a view
   * through it, the view's pipeline first, and has no indexes of the view's own), none unique (the view's
   * pipeline may repeat a document, by `$unwind` or `$lookup`); none for a view on no collection.
   */
  async listIndexes(collection: string): Promise<IndexDescription[]> {
    const { indexes, source } = await indexesThroughViews(this.#db, collection);
    return indexes.map((index) => ({
      key: index.key as Record<string, unknown>,
      unique: source === undefined && index.unique === true,
      ...(source !== undefined && { collection: source }),
      ...(typeof index.partialFilterExpression === 'object' && index.partialFilterExpression !== null && { partialFilter: index.partialFilterExpression as Record<string, unknown> }),
    }));
  }

  /**
   * The database's collections and views in one listCollections (startup checks): their names, each view
   * with the collection (or view) it is a view on and its pipeline, and each one created with a default
   * collation other than `simple`.
   */
  async listCollections(): Promise<CollectionListing> {
    return collectionListingOf(await this.#db.listCollections({}).toArray());
  }

  /**
   * Up to `sample.first` documents of `collection` in `_id` order (the same on every start), then up to
   * `sample.random` others picked by `$sample`, in `_id` order too. Only the first when the server refuses `$sample`.
   */
  async sampleDocuments(collection: string, sample: DocumentSample): Promise<StoredDocument[]> {
    const documents = this.#db.collection(collection);
    const first = await documents.find({}, { sort: { _id: 1 }, limit: sample.first }).toArray();
    if (first.length < sample.first || sample.random === 0) return first;
    let picked: StoredDocument[];
    try {
      picked = await documents.aggregate([{ $sample: { size: sample.random } }]).toArray();
    } catch (error) {
      if (error instanceof MongoServerError) return first;
      throw error;
    }
    const seen = new Set(first.map((document) => keyString(document._id)));
    const others = new Map<string, StoredDocument>();
    for (const document of picked) if (!seen.has(keyString(document._id))) others.set(keyString(document._id), document);
    return [...first, ...[...others.keys()].sort().map((key) => others.get(key)!)];
  }

  /** Whether some document of `collection` has `path`; undefined when the collection is empty. */
  async someDocumentHas(collection: string, path: string): Promise<boolean | undefined> {
    const documents = this.#db.collection(collection);
    if (await documents.findOne({ [path]: { $exists: true } }, { projection: { _id: 1 } })) return true;
    return (await documents.findOne({}, { projection: { _id: 1 } })) ? false : undefined;
  }

  async ping(): Promise<void> {
    await this.#db.command({ ping: 1 });
  }

  /**
   * A ping that also settles, successfully, as soon as the server answers any other command of this
   * client: under load the ping may wait behind the requests' commands, whose answers prove as much.
   * It fails when the ping fails before anything is answered.
   */
  pingOrAnyAnswer(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const answered = (): void => {
        this.#answerWaiters.delete(answered);
        resolve();
      };
      this.#answerWaiters.add(answered);
      this.ping().then(answered, (error: unknown) => {
        this.#answerWaiters.delete(answered);
        reject(error);
      });
    });
  }

  /**
   * Whether the server answered a command of this client in the last `ms`, with no failure or close
   * since (a ping need not be sent).
   */
  answeredWithin(ms: number): boolean {
    return Date.now() - this.#lastAnswerAt <= ms;
  }

  /** The server's version (buildInfo, not attributed to any request); undefined when it does not tell. */
  serverVersion(): Promise<string | undefined> {
    return readServerVersion(this.#db);
  }

  /** Whether the server runs transactions: a replica set member (hello has setName) or a mongos. */
  async supportsTransactions(): Promise<boolean> {
    const hello = await this.#db.command({ hello: 1 });
    return typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
  }

  /**
   * Creates `collection` unless it exists, outside any transaction: one that would create it inside a
   * transaction conflicts with the others doing so, and a cross-shard transaction may not create one.
   * Asked first, so a user who may write it but not create collections is not refused once it exists.
   */
  async ensureCollection(collection: string): Promise<void> {
    if (await this.#db.listCollections({ name: collection }, { nameOnly: true }).hasNext()) return;
    try {
      await this.#db.createCollection(collection);
    } catch (error) {
      if (!(error instanceof MongoServerError && error.code === NAMESPACE_EXISTS)) throw error;
    }
  }

  /**
   * Runs `work` with a writer whose commands share one session and are attributed to `scope` and to
   * `unit`, the ledger's record of this write unit. With `transaction`, they commit together, and the
   * whole of `work` runs again after a transient error (a write conflict) while `retries` allows, so
   * `work` must be safe to run again; each run is a new attempt of `unit`, and its commands carry that
   * attempt, so the report counts only the documents of the attempt that committed. When the retries
   * stop on a server's transient error, the unit fails with TransactionConflict. Other driver errors
   * reach the caller as DatabaseFailure; inside `work` the writer throws them raw, because the retry
   * decision reads their error labels.
   */
  async runWriteUnit<T>(
    scope: CommandScope,
    unit: WriteUnitRecord,
    options: { transaction: boolean; retries: TransactionRetryGate },
    work: (writer: FunnelWriter) => Promise<T>,
  ): Promise<T> {
    const unitScope: CommandScope = { ...scope, writeUnit: unit };
    const session = this.#client.startSession();
    const sessionKey = lsidKey(session.id?.id);
    if (sessionKey !== undefined) this.#sessions.set(sessionKey, { scope: unitScope, collection: SESSION_COMMANDS });
    const writer = new FunnelWriter(this.#db, session, (collection, operation) => this.#attribute(unitScope, collection, operation));
    const attempt = (): Promise<T> => {
      unit.startAttempt();
      return work(writer);
    };
    try {
      const result = options.transaction ? await inTransaction(session, options.retries, attempt) : await attempt();
      unit.finish('committed');
      return result;
    } catch (error) {
      unit.finish('failed');
      throw error instanceof MongoError ? new DatabaseFailure(writer.lastCollection, error) : error;
    } finally {
      await session.endSession();
      if (sessionKey !== undefined) this.#sessions.delete(sessionKey);
    }
  }

  /** Tags the operation's commands with a fresh comment for attribution; driver errors pass through as they are. */
  async #attribute<T>(scope: CommandScope, collection: string, operation: (comment: string) => Promise<T>): Promise<T> {
    const comment = `${this.#commentPrefix}${++this.#nextOperation}`;
    this.#inflight.set(comment, { scope, collection });
    try {
      return await operation(comment);
    } finally {
      this.#inflight.delete(comment);
    }
  }

  /** Stops listening; the client belongs to the caller, who closes it. */
  detach(): void {
    this.#client.off('commandStarted', this.#onStarted);
    this.#client.off('commandSucceeded', this.#onSucceeded);
    this.#client.off('topologyClosed', this.#forgetAnswers);
    this.#client.off('commandFailed', this.#onFailed);
  }

  /**
   * #attribute for the read path: nothing is sent once the request's deadline has passed, each read
   * gets the time left as `maxTimeMS` and is abandoned when the deadline overruns (a read still waiting
   * for a server in an outage), and driver errors become DatabaseFailure, except MongoDB's own "time
   * limit exceeded", which stops the operation as a timeout.
   */
  async #run<T>(scope: CommandScope, collection: string, operation: (comment: string, limits: () => ReadLimits) => Promise<T>): Promise<T> {
    const { deadline } = scope;
    deadline?.throwIfStopped();
    scope.ledger.startRead(scope.fields);
    try {
      // Each command of the read gets the time left when it is sent; none is sent once the deadline has passed.
      const limits = (): ReadLimits => {
        if (!deadline) return {};
        deadline.throwIfStopped();
        return { maxTimeMS: deadline.remainingMs(), signal: deadline.overrunSignal };
      };
      return await this.#attribute(scope, collection, (comment) => operation(comment, limits));
    } catch (error) {
      if (error instanceof OperationStopped) throw error;
      if (deadline && isTimeLimitExceeded(error)) {
        deadline.stop('timeout');
        deadline.throwIfStopped();
      }
      throw new DatabaseFailure(collection, error);
    } finally {
      scope.ledger.endRead();
    }
  }

  readonly #onStarted = (event: CommandStartedEvent): void => {
    const comment = (event.command as { comment?: unknown }).comment;
    if (comment === undefined) return this.#startSessionCommand(event);
    if (typeof comment !== 'string' || !comment.startsWith(this.#commentPrefix)) return;
    const operation = this.#inflight.get(comment);
    if (!operation) return;
    if (!operation.described) {
      operation.filter = commandFilterShape(event.commandName, event.command);
      operation.lookups = commandLookupShapes(event.commandName, event.command);
      operation.described = true;
    }
    this.#started.set(eventKey(event), startedCommand(operation, event.commandName));
  };

  readonly #forgetAnswers = (): void => {
    this.#lastAnswerAt = 0;
  };

  readonly #onSucceeded = (event: CommandSucceededEvent): void => {
    this.#lastAnswerAt = Date.now();
    if (this.#answerWaiters.size > 0) for (const answered of this.#answerWaiters) answered();
    const { documents, bytes } = measureReply(event.commandName, event.reply);
    this.#finish(event, true, documents, bytes);
  };

  readonly #onFailed = (event: CommandFailedEvent): void => {
    this.#lastAnswerAt = 0;
    this.#finish(event, false, 0, 0);
  };

  /** A write unit's commitTransaction / abortTransaction, recognised by its session id. */
  #startSessionCommand(event: CommandStartedEvent): void {
    const key = lsidKey((event.command as { lsid?: { id?: unknown } }).lsid?.id);
    const unit = key === undefined ? undefined : this.#sessions.get(key);
    if (unit) this.#started.set(eventKey(event), startedCommand(unit, event.commandName));
  }

  #finish(event: CommandSucceededEvent | CommandFailedEvent, ok: boolean, documents: number, bytes: number): void {
    const key = eventKey(event);
    const started = this.#started.get(key);
    if (!started) return;
    this.#started.delete(key);
    started.operation.scope.ledger.recordCommand({
      collection: started.operation.collection,
      commandName: started.commandName,
      fields: started.operation.scope.fields,
      documents,
      bytes,
      durationMs: event.duration,
      ok,
      ...(started.writeUnit && { writeUnit: started.writeUnit, documentsModified: ok ? documentsModified(started.commandName, (event as CommandSucceededEvent).reply) : 0 }),
      ...(started.operation.filter !== undefined && { filter: started.operation.filter }),
      ...(started.operation.lookups !== undefined && { lookups: started.operation.lookups }),
    });
  }
}

interface StartedCommand {
  readonly operation: InflightOperation;
  readonly commandName: string;
  /** A write unit's command: the attempt it was sent in, fixed when it starts (a retry may begin before it is counted). */
  readonly writeUnit?: WriteAttemptTag;
}

function startedCommand(operation: InflightOperation, commandName: string): StartedCommand {
  const unit = operation.scope.writeUnit;
  return { operation, commandName, ...(unit && { writeUnit: unit.tag }) };
}

/**
 * `attempt` in a transaction, then the commit. After an error labelled TransientTransactionError (a
 * write conflict, a connection lost mid-transaction) the transaction is aborted and `attempt` runs
 * again in a new one when `retries` allows. This is session.withTransaction's loop with bounds: the
 * driver's keeps retrying for 120 s, which against a transaction left open by a dead client meant
 * hundreds of attempts. A commit whose outcome is unknown (UnknownTransactionCommitResult, after the
 * driver's own retry of it) is not retried here; it fails the unit.
 */
async function inTransaction<T>(session: ClientSession, retries: TransactionRetryGate, attempt: () => Promise<T>): Promise<T> {
  for (let attempts = 1; ; attempts++) {
    session.startTransaction();
    try {
      const result = await attempt();
      await session.commitTransaction();
      return result;
    } catch (error) {
      // A failed commit has ended the transaction; anything else leaves it open on the server until aborted.
      if (session.inTransaction()) await session.abortTransaction();
      if (!(error instanceof MongoError && error.hasErrorLabel(MongoErrorLabel.TransientTransactionError))) throw error;
      if (await retries.retryAfter(attempts)) continue;
      // A server that keeps refusing is contention; a network error stays a DatabaseFailure.
      throw error instanceof MongoServerError ? new TransactionConflict(attempts, error) : error;
    }
  }
}


/** Decodes a cursor's envelope and leaves its documents raw. */
const RAW_BATCH: BSON.DeserializeOptions = { fieldsAsRaw: { firstBatch: true, nextBatch: true } };

/** A find or aggregate reply's cursor envelope: its id (0 once the server has closed it) and its first batch. */
interface CursorReply {
  readonly id: unknown;
  readonly firstBatch?: unknown[];
}

/** A cursor id decodes as a Long, or as a number (or bigint) when the client promotes small ones. */
function isClosedCursor(id: unknown): boolean {
  if (id instanceof BSON.Long) return id.isZero();
  return id === undefined || id === null || Number(id) === 0;
}

/** killCursors takes the id as a BSON int64, whatever it was promoted to. */
function asInt64(id: unknown): BSON.Long {
  if (id instanceof BSON.Long) return id;
  return typeof id === 'bigint' ? BSON.Long.fromBigInt(id) : BSON.Long.fromNumber(Number(id));
}

/** See FindOptions.batchSize: one more than the answer can hold, so the first reply reaches the end. */
function replyBatchSize(expected: number): number {
  return Math.max(0, expected) + 1;
}

/** A batch as large as one reply holds (the largest int32 MongoDB takes; it stops a batch at 16 MiB). */
const WHOLE_REPLY = 2 ** 31 - 1;

function isTimeLimitExceeded(error: unknown): boolean {
  return error instanceof MongoServerError && error.codeName === 'MaxTimeMSExpired';
}

function eventKey(event: { connectionId?: string | number; requestId: number }): string {
  return `${String(event.connectionId)}#${event.requestId}`;
}

/** A Buffer is sized as BSON binary: its int32 length and subtype byte more than the document it holds. */
const RAW_DOCUMENT_OVERHEAD = 5;

/**
 * The documents of a reply and its BSON size. A raw read's reply holds each of its subdocuments (its
 * cursor, and $clusterTime from a replica set) as a Buffer, so counting its documents decodes nothing
 * but the cursor's envelope; the size takes off what sizing each Buffer as binary adds, which makes a
 * read's reply size the one that came over the wire. Other replies are sized as the driver decoded them. A
 * findAndModify returns its one document as `value`.
 */
export function measureReply(commandName: string, reply: unknown): { documents: number; bytes: number } {
  if (reply === null || typeof reply !== 'object') return { documents: 0, bytes: 0 };
  const bytes = replySize(reply as Document);
  const cursor = (reply as { cursor?: unknown }).cursor;
  if (cursor instanceof Uint8Array) {
    const batch = batchOf(BSON.deserialize(cursor, RAW_BATCH));
    // A raw reply holds each of its subdocuments ($clusterTime too) as a Buffer.
    const rawFields = Object.values(reply).filter((value) => value instanceof Uint8Array).length;
    return { documents: batch.length, bytes: bytes - RAW_DOCUMENT_OVERHEAD * rawFields };
  }
  if (commandName === 'findAndModify') return { documents: isDocument((reply as { value?: unknown }).value) ? 1 : 0, bytes };
  const batch = batchOf(cursor);
  const rawDocuments = batch.filter((document) => document instanceof Uint8Array).length;
  return { documents: batch.length, bytes: bytes - RAW_DOCUMENT_OVERHEAD * rawDocuments + promotedCursorIdBytes(cursor) };
}

/**
 * BSON.calculateObjectSize of a reply (a raw document sized as binary), without walking a raw batch:
 * each of its elements is a type byte, its index as a C string, and the Buffer as binary (its int32
 * length, subtype byte and bytes).
 */
function replySize(reply: Document): number {
  const cursor = reply.cursor as { firstBatch?: unknown; nextBatch?: unknown } | undefined;
  const key = cursor?.firstBatch !== undefined ? 'firstBatch' : 'nextBatch';
  const batch = cursor?.[key];
  if (!Array.isArray(batch) || batch.length === 0 || !batch.every((document) => document instanceof Uint8Array)) return BSON.calculateObjectSize(reply);
  let elements = 0;
  batch.forEach((document: Uint8Array, index) => {
    elements += 2 + String(index).length + document.byteLength;
  });
  return BSON.calculateObjectSize({ ...reply, cursor: { ...cursor, [key]: [] } }) + elements + RAW_DOCUMENT_OVERHEAD * batch.length;
}

/** A cursor id is an int64 on the wire; decoded into a number, it would be sized as an int32. */
function promotedCursorIdBytes(cursor: unknown): number {
  return typeof (cursor as { id?: unknown } | undefined)?.id === 'number' ? 4 : 0;
}

function isDocument(value: unknown): boolean {
  return typeof value === 'object' && value !== null;
}

function batchOf(cursor: unknown): readonly unknown[] {
  const { firstBatch, nextBatch } = (cursor ?? {}) as { firstBatch?: unknown; nextBatch?: unknown };
  const batch = firstBatch ?? nextBatch;
  return Array.isArray(batch) ? batch : [];
}

/**
 * A MongoClient with command monitoring on (round trips are counted from it); the caller owns and
 * closes it. It looks for a server for `serverSelectionTimeoutMS` (default 5 s, not the driver's 30 s)
 * before a command fails, so during an outage each request ends with DATABASE_UNAVAILABLE within it. A
 * URI that sets its own `serverSelectionTimeoutMS` keeps it for the commands, but the connection made
 * here gives up within the bound given whatever the URI says: a start fails fast.
 */
export async function connectMongo(uri: string, options: { serverSelectionTimeoutMS?: number } = {}): Promise<MongoClient> {
  const client = new MongoClient(uri, { monitorCommands: true, ...serverSelectionTimeout(uri, options.serverSelectionTimeoutMS) });
  const within = options.serverSelectionTimeoutMS ?? DEFAULT_MONGO_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new MongoConnectTimeout(within)), within);
  });
  try {
    await Promise.race([client.connect(), gaveUp]);
  } catch (error) {
    // A failed connect can leave a monitor waiting on a silent server, which would keep the process alive.
    await client.close().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return client;
}

/** No server answered the first connection within the bound (whatever timeouts the URI sets). */
export class MongoConnectTimeout extends Error {
  override readonly name = 'MongoConnectTimeout';
  constructor(readonly ms: number) {
    super(`no server answered within ${ms} ms`);
  }
}

export type { MongoClient, Db } from 'mongodb';

/**
 * Documents a write command changed, from its reply (`nModified` for update, `n` for insert/delete).
 * A findAndModify reports only what it matched (`lastErrorObject.n`): write units send one only for a
 * statement that changes what it matches (write-unit.ts).
 */
function documentsModified(commandName: string, reply: unknown): number {
  const counts = (reply ?? {}) as { n?: unknown; nModified?: unknown; lastErrorObject?: { n?: unknown } };
  let value: unknown = 0;
  if (commandName === 'update') value = counts.nModified;
  else if (commandName === 'insert' || commandName === 'delete') value = counts.n;
  else if (commandName === 'findAndModify') value = counts.lastErrorObject?.n;
  return typeof value === 'number' ? value : 0;
}

/** A session id (`lsid.id`, a BSON Binary) as a map key. */
function lsidKey(id: unknown): string | undefined {
  return id instanceof BSON.Binary ? id.toString('hex') : undefined;
}
