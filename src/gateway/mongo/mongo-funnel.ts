import {
  BSON,
  MongoClient,
  type CommandFailedEvent,
  type CommandStartedEvent,
  type CommandSucceededEvent,
  type Db,
  type Document,
} from 'mongodb';
import type { CostLedger } from '../cost/cost-ledger';
import { DatabaseFailure } from '../errors/internal-errors';

/** A stored document as the gateway sees it. */
export type StoredDocument = Record<string, unknown>;

/** Who a command is for: the request's ledger and the `Type.field`s whose loads it serves. */
export interface CommandScope {
  readonly ledger: CostLedger;
  readonly fields: readonly string[];
}

export interface FindOptions {
  readonly projection: Record<string, unknown>;
  readonly sort?: Record<string, 1 | -1>;
  readonly limit?: number;
  /** Documents per reply; set to the expected count so one command fetches the whole answer. */
  readonly batchSize?: number;
}

interface InflightOperation {
  readonly scope: CommandScope;
  readonly collection: string;
}

const COMMENT_PREFIX = 'docjoin:';

/**
 * The mongo funnel: the only gateway module that imports `mongodb`. Every gateway command goes through it.
 *
 * Attribution: each operation gets a unique `comment` (`docjoin:<n>`); the driver copies it onto the
 * command and onto every `getMore` of its cursor. Command monitoring events carry the command, so the
 * listener maps comment → operation → request ledger, whatever interleaving concurrent requests cause.
 */
export class MongoFunnel {
  readonly #client: MongoClient;
  readonly #db: Db;
  readonly #inflight = new Map<string, InflightOperation>();
  /** Started commands by connection + wire request id, until they succeed or fail. */
  readonly #started = new Map<string, { operation: InflightOperation; commandName: string }>();
  #nextOperation = 0;

  constructor(client: MongoClient, db: Db) {
    if (client.options.monitorCommands !== true) {
      throw new TypeError('MongoFunnel needs a MongoClient created with { monitorCommands: true } (use connectMongo(uri)); without it round trips cannot be counted');
    }
    this.#client = client;
    this.#db = db;
    client.on('commandStarted', this.#onStarted);
    client.on('commandSucceeded', this.#onSucceeded);
    client.on('commandFailed', this.#onFailed);
  }

  get databaseName(): string {
    return this.#db.databaseName;
  }

  async find(scope: CommandScope, collection: string, filter: StoredDocument, options: FindOptions): Promise<StoredDocument[]> {
    return this.#run(scope, collection, (comment) =>
      this.#db
        .collection(collection)
        .find(filter, {
          projection: options.projection,
          ...(options.sort && { sort: options.sort }),
          ...(options.limit !== undefined && { limit: options.limit }),
          ...(options.batchSize !== undefined && { batchSize: Math.max(1, options.batchSize) }),
          comment,
        })
        .toArray(),
    );
  }

  async aggregate(scope: CommandScope, collection: string, pipeline: readonly StoredDocument[], options: { batchSize?: number } = {}): Promise<StoredDocument[]> {
    return this.#run(scope, collection, (comment) =>
      this.#db
        .collection(collection)
        .aggregate(pipeline as Document[], { ...(options.batchSize !== undefined && { batchSize: Math.max(1, options.batchSize) }), comment })
        .toArray(),
    );
  }

  /** Startup checks (not attributed to any request). */
  async listCollectionNames(): Promise<string[]> {
    const collections = await this.#db.listCollections({}, { nameOnly: true }).toArray();
    return collections.map((collection) => collection.name);
  }

  async listIndexKeys(collection: string): Promise<Array<Record<string, unknown>>> {
    const indexes = await this.#db.collection(collection).listIndexes().toArray();
    return indexes.map((index) => index.key as Record<string, unknown>);
  }

  async ping(): Promise<void> {
    await this.#db.command({ ping: 1 });
  }

  /** Stops listening; the client belongs to the caller, who closes it. */
  detach(): void {
    this.#client.off('commandStarted', this.#onStarted);
    this.#client.off('commandSucceeded', this.#onSucceeded);
    this.#client.off('commandFailed', this.#onFailed);
  }

  async #run<T>(scope: CommandScope, collection: string, operation: (comment: string) => Promise<T>): Promise<T> {
    const comment = `${COMMENT_PREFIX}${++this.#nextOperation}`;
    this.#inflight.set(comment, { scope, collection });
    try {
      return await operation(comment);
    } catch (error) {
      throw new DatabaseFailure(collection, error);
    } finally {
      this.#inflight.delete(comment);
    }
  }

  readonly #onStarted = (event: CommandStartedEvent): void => {
    const comment = (event.command as { comment?: unknown }).comment;
    if (typeof comment !== 'string' || !comment.startsWith(COMMENT_PREFIX)) return;
    const operation = this.#inflight.get(comment);
    if (operation) this.#started.set(eventKey(event), { operation, commandName: event.commandName });
  };

  readonly #onSucceeded = (event: CommandSucceededEvent): void => {
    this.#finish(event, true, countDocuments(event.reply), replyBytes(event.reply));
  };

  readonly #onFailed = (event: CommandFailedEvent): void => {
    this.#finish(event, false, 0, 0);
  };

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
    });
  }
}

function eventKey(event: { connectionId?: string | number; requestId: number }): string {
  return `${String(event.connectionId)}#${event.requestId}`;
}

function countDocuments(reply: unknown): number {
  const cursor = (reply as { cursor?: { firstBatch?: unknown; nextBatch?: unknown } } | undefined)?.cursor;
  const batch = cursor?.firstBatch ?? cursor?.nextBatch;
  return Array.isArray(batch) ? batch.length : 0;
}

function replyBytes(reply: unknown): number {
  return reply !== null && typeof reply === 'object' ? BSON.calculateObjectSize(reply as Document) : 0;
}

/** A client whose commands the funnel can count. The caller owns and closes it. */
export async function connectMongo(uri: string, options: { serverSelectionTimeoutMS?: number } = {}): Promise<MongoClient> {
  return MongoClient.connect(uri, { monitorCommands: true, ...options });
}

export type { MongoClient, Db } from 'mongodb';
