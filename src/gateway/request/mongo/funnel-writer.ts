import { MongoServerError, type AnyBulkWriteOperation, type ClientSession, type Db } from 'mongodb';
import { DatabaseFailure } from '../../errors/internal-errors';
import type { StoredDocument } from '../../documents/stored-document';
import { LOCK_COLLECTION } from '../../documents/lock-collection';

/** A write unit's session commands (commit/abort) are not about one collection. */
export const SESSION_COMMANDS = '$cmd';

/** One `update` statement of a write unit. */
export interface UpdateStatement {
  readonly filter: StoredDocument;
  readonly update: StoredDocument;
  readonly arrayFilters?: readonly StoredDocument[];
  /** updateMany (true) or updateOne. */
  readonly multi: boolean;
}

/** The commands a write unit may send, all in its session. One method call is one command. */
export class FunnelWriter {
  #lastCollection = SESSION_COMMANDS;

  constructor(
    private readonly db: Db,
    private readonly session: ClientSession,
    private readonly attribute: <T>(collection: string, operation: (comment: string) => Promise<T>) => Promise<T>,
  ) {}

  /** Whether its commands run in a transaction (a failure then takes back every write of the attempt). */
  get inTransaction(): boolean {
    return this.session.inTransaction();
  }

  /** The collection of the latest command, to name in a DatabaseFailure. */
  get lastCollection(): string {
    return this.#lastCollection;
  }

  /** `limit` caps the documents returned (an existence check needs one); `sort` orders them. */
  async find(
    collection: string,
    filter: StoredDocument,
    projection: Record<string, unknown>,
    options: { readonly limit?: number; readonly sort?: Record<string, 1 | -1> } = {},
  ): Promise<StoredDocument[]> {
    this.#lastCollection = collection;
    const limit = options.limit === undefined ? {} : { limit: options.limit };
    const sort = options.sort === undefined ? {} : { sort: options.sort };
    return this.attribute(collection, (comment) => this.db.collection(collection).find(filter, { projection, session: this.session, comment, ...limit, ...sort }).toArray());
  }

  /** ONE `aggregate` command of `pipeline`, its documents. */
  async aggregate(collection: string, pipeline: readonly StoredDocument[]): Promise<StoredDocument[]> {
    this.#lastCollection = collection;
    return this.attribute(collection, (comment) => this.db.collection(collection).aggregate<StoredDocument>([...pipeline], { session: this.session, comment }).toArray());
  }

  /** Every statement in ONE ordered `update` command; returns the matched and modified totals. */
  async update(collection: string, statements: readonly UpdateStatement[]): Promise<{ matched: number; modified: number }> {
    this.#lastCollection = collection;
    // One statement goes out as updateOne/updateMany: the same command, without the driver's bulk machinery.
    if (statements.length === 1) return this.#updateAlone(collection, statements[0]!);
    const operations = statements.map((statement): AnyBulkWriteOperation => {
      const body = { filter: statement.filter, update: statement.update, ...(statement.arrayFilters && { arrayFilters: [...statement.arrayFilters] }) };
      return statement.multi ? { updateMany: body } : { updateOne: body };
    });
    const result = await this.attribute(collection, (comment) => this.db.collection(collection).bulkWrite(operations, { ordered: true, session: this.session, comment }));
    return { matched: result.matchedCount, modified: result.modifiedCount };
  }

  async #updateAlone(collection: string, statement: UpdateStatement): Promise<{ matched: number; modified: number }> {
    const options = { session: this.session, ...(statement.arrayFilters && { arrayFilters: [...statement.arrayFilters] }) };
    const result = await this.attribute(collection, (comment) => {
      const documents = this.db.collection(collection);
      return statement.multi ? documents.updateMany(statement.filter, statement.update, { ...options, comment }) : documents.updateOne(statement.filter, statement.update, { ...options, comment });
    });
    return { matched: result.matchedCount, modified: result.modifiedCount };
  }

  /**
   * ONE `findAndModify` of the single-document `statement`: what it matched (0 or 1), and the document
   * as the update left it (or, with `returnDocument: 'before'`, as it found it), with the paths of
   * `projection` (null when nothing matched).
   */
  async updateOneReturning(
    collection: string,
    statement: UpdateStatement,
    projection: Record<string, unknown>,
    returnDocument: 'before' | 'after' = 'after',
  ): Promise<{ matched: number; document: StoredDocument | null }> {
    this.#lastCollection = collection;
    const options = { session: this.session, projection, returnDocument, includeResultMetadata: true as const, ...(statement.arrayFilters && { arrayFilters: [...statement.arrayFilters] }) };
    const result = await this.attribute(collection, (comment) => this.db.collection(collection).findOneAndUpdate(statement.filter, statement.update, { ...options, comment }));
    return { matched: result.lastErrorObject?.n ?? 0, document: result.value };
  }

  /**
   * ONE `update` command bumping the lock document of each of `ids` in LOCK_COLLECTION (made on its
   * first bump): inside a transaction, a write every other transaction bumping one of them conflicts with.
   */
  async lock(ids: readonly string[]): Promise<void> {
    this.#lastCollection = LOCK_COLLECTION;
    const operations = ids.map((id): AnyBulkWriteOperation<{ _id: string }> => ({ updateOne: { filter: { _id: id }, update: { $inc: { bumps: 1 } }, upsert: true } }));
    await this.attribute(LOCK_COLLECTION, (comment) => this.db.collection<{ _id: string }>(LOCK_COLLECTION).bulkWrite(operations, { ordered: true, session: this.session, comment }));
  }

  /** ONE `delete` command of the first document matching `filter`; returns how many it deleted (0 or 1). */
  async deleteOne(collection: string, filter: StoredDocument): Promise<number> {
    this.#lastCollection = collection;
    const result = await this.attribute(collection, (comment) => this.db.collection(collection).deleteOne(filter, { session: this.session, comment }));
    return result.deletedCount;
  }

  /** ONE `findAndModify` removing the first document matching `filter`: the document as it was, or null when none matched. */
  async deleteOneReturning(collection: string, filter: StoredDocument): Promise<StoredDocument | null> {
    this.#lastCollection = collection;
    return this.attribute(collection, (comment) => this.db.collection(collection).findOneAndDelete(filter, { session: this.session, comment }));
  }

  /** Every document in ONE `insert` command. */
  async insert(collection: string, documents: readonly StoredDocument[]): Promise<number> {
    this.#lastCollection = collection;
    if (documents.length === 1) {
      await this.attribute(collection, (comment) => this.db.collection(collection).insertOne(documents[0]!, { session: this.session, comment }));
      return 1;
    }
    const result = await this.attribute(collection, (comment) => this.db.collection(collection).insertMany([...documents], { ordered: true, session: this.session, comment }));
    return result.insertedCount;
  }
}

/** MongoDB's own refusal behind `error` (the funnel wraps it in a DatabaseFailure); undefined for any other error. */
export function mongoServerErrorOf(error: unknown): MongoServerError | undefined {
  const server = error instanceof DatabaseFailure ? error.cause : error;
  return server instanceof MongoServerError ? server : undefined;
}
