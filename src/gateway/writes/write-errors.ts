import { GraphQLError } from 'graphql';
import { mongoServerErrorOf } from '../request/mongo/funnel-writer';
import { PublicErrorCode } from '../errors/public-error-code';
import type { RetryLimit } from './transaction-retries';

/** A write names a document that does not exist; raised before anything is written. */
export function notFound(message: string, details: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code: PublicErrorCode.NOT_FOUND, ...details } });
}

/**
 * MongoDB refused an `$inc` whose result a 64-bit integer cannot hold (a Long @total, or a counter
 * stored as a long, past 2^63 - 1): the write's own values, so BAD_USER_INPUT. Inside a transaction
 * the unit is rolled back with it; without one, the commands before it stand, and the message says so.
 */
export function totalOverflow(mutation: string, cause: unknown, inTransaction: boolean): GraphQLError | undefined {
  const server = mongoServerErrorOf(cause);
  if (server?.code !== BAD_VALUE || !server.message.includes('Failed to apply $inc')) return undefined;
  return new GraphQLError(`${mutation}: a total or counter this write moves would pass the largest Long (9223372036854775807), ${outcomeOf(inTransaction)}`, {
    // Not MongoDB's error as its cause: its message holds the total, which the role may not see (a stack trace outside production would show it).
    extensions: { code: PublicErrorCode.BAD_USER_INPUT },
  });
}

/** What a write MongoDB refused left: inside a transaction nothing; without one, the commands before it. */
function outcomeOf(inTransaction: boolean): string {
  return inTransaction ? 'so nothing was written' : 'so it was left as it was; without a transaction, what the write changed before it stands (docjoin reconcile reports the drift)';
}

/** MongoDB's BadValue, which an `$inc` past a 64-bit integer's range answers. */
const BAD_VALUE = 2;

/**
 * MongoDB refused to store a document past its 16 MiB limit: an insert of one, or an update whose result
 * would be one (a list embedded in it grown by many writes). The write's own doing, so BAD_USER_INPUT,
 * with the same outcome as totalOverflow's.
 */
export function documentTooLarge(mutation: string, cause: unknown, inTransaction: boolean): GraphQLError | undefined {
  const server = mongoServerErrorOf(cause);
  if (server === undefined || !DOCUMENT_TOO_LARGE.has(Number(server.code))) return undefined;
  return new GraphQLError(`${mutation}: a document this write stores would be larger than MongoDB's 16 MB limit, ${outcomeOf(inTransaction)}; keep growing lists in their own collection (@join) rather than in the document`, {
    extensions: { code: PublicErrorCode.BAD_USER_INPUT },
  });
}

/** BSONObjectTooLarge (an insert), and the error of an update whose result is too large. */
const DOCUMENT_TOO_LARGE = new Set([10334, 17419]);

/**
 * MongoDB refused to move a counter or total that a parent holds as no number (`$inc`), or to push onto
 * or pull from a bounded or inverse array it holds as no array (`$push`, `$pull`): null, or a value
 * another writer stored there. The stored data's doing, so BAD_USER_INPUT, with totalOverflow's
 * outcome; `docjoin reconcile --fix` computes such values again. MongoDB's message is left out: it
 * names the document.
 */
export function derivedValueMistyped(mutation: string, cause: unknown, inTransaction: boolean): GraphQLError | undefined {
  const server = mongoServerErrorOf(cause);
  const mistyped =
    (server?.code === TYPE_MISMATCH && server.message.startsWith('Cannot apply $inc to a value of non-numeric type')) ||
    (server?.code === BAD_VALUE && /^(The field '.*' must be an array but is of type |Cannot apply \$pull to a non-array value)/.test(server.message));
  if (!mistyped) return undefined;
  return new GraphQLError(
    `${mutation}: a counter, total or list this write keeps in step is stored as another type (null, or no number or list) in a document it writes, ${outcomeOf(inTransaction)}; run docjoin reconcile --fix to compute it again`,
    { extensions: { code: PublicErrorCode.BAD_USER_INPUT } },
  );
}

/** MongoDB's TypeMismatch, which an `$inc` of a value that is no number answers. */
const TYPE_MISMATCH = 14;

/**
 * MongoDB refused to set a field inside a value the document holds that is no document (`address.city`
 * where `address` is null or a string): the stored data's doing, so BAD_USER_INPUT naming the `fields`
 * set there, with the same outcome as totalOverflow's. MongoDB's message is left out: it holds the value.
 */
export function pathNotSettable(mutation: string, fields: readonly string[], cause: unknown, inTransaction: boolean): GraphQLError | undefined {
  if (mongoServerErrorOf(cause)?.code !== PATH_NOT_VIABLE) return undefined;
  return new GraphQLError(
    `${mutation}: ${fields.join(', ')} ${fields.length === 1 ? 'is' : 'are'} stored inside a value this document holds as no document (null, a scalar or a list), where MongoDB cannot set a field, ${outcomeOf(inTransaction)}; set the value around ${fields.length === 1 ? 'it' : 'them'} whole first`,
    { extensions: { code: PublicErrorCode.BAD_USER_INPUT } },
  );
}

/** MongoDB's PathNotViable: an update path runs through a value that is no document. */
const PATH_NOT_VIABLE = 28;

/**
 * MongoDB refused one of a unit's writes by the data's own constraints: the validator of `collection`,
 * or a unique index there, broken by a document's own write (the input's: DuplicateInOwnWrite, whose
 * fields the generated mutations name) or by a `derived` one (a copy, counter or array the write
 * keeps in step with its source). BAD_USER_INPUT, with totalOverflow's outcome (nothing written when
 * `nothingBefore`: the refused command was the unit's first, of one statement). MongoDB's message is
 * left out: it holds the values.
 */
export function refusedByConstraint(
  mutation: string,
  collection: string,
  cause: unknown,
  write: { readonly inTransaction: boolean; readonly nothingBefore: boolean; readonly derived: boolean },
): GraphQLError | undefined {
  const server = mongoServerErrorOf(cause);
  const outcome = outcomeOf(write.inTransaction || write.nothingBefore);
  if (server?.code === DOCUMENT_VALIDATION_FAILURE) {
    return new GraphQLError(`${mutation}: the validator of collection ${collection} refuses a document this write stores there, ${outcome}; give values the validator accepts, or make it accept what the schema's fields store`, {
      extensions: { code: PublicErrorCode.BAD_USER_INPUT },
    });
  }
  if (server?.code !== DUPLICATE_KEY) return undefined;
  const keyPaths = duplicateKeyPaths(server);
  const paths = keyPaths.length > 0 ? ` (${keyPaths.join(', ')})` : '';
  if (!write.derived) {
    return new DuplicateInOwnWrite(`${mutation}: a unique index on ${collection}${paths} refuses a document this write stores there, which repeats another's values, ${outcome}; give values no other document holds`, keyPaths);
  }
  return new GraphQLError(`${mutation}: a unique index on ${collection}${paths} refuses a value this write keeps there in step with its source, ${outcome}; a copy repeats its source's values in every document that references it, so drop that unique index`, {
    extensions: { code: PublicErrorCode.BAD_USER_INPUT },
  });
}

/**
 * A unique index refused a document's own write: the input's values, whose fields a generated mutation
 * names from the index's `keyPaths` (MongoDB's error is not kept: its message holds the values).
 */
export class DuplicateInOwnWrite extends GraphQLError {
  constructor(
    message: string,
    readonly keyPaths: readonly string[],
  ) {
    super(message, { extensions: { code: PublicErrorCode.BAD_USER_INPUT } });
  }
}

/**
 * A unique-index violation (E11000), which a write resolver may turn into BAD_USER_INPUT: MongoDB's,
 * or a write unit's refusal of a document's own write (DuplicateInOwnWrite).
 */
export function isDuplicateKeyError(error: unknown): boolean {
  return error instanceof DuplicateInOwnWrite || mongoServerErrorOf(error)?.code === DUPLICATE_KEY;
}

/** The stored paths of the unique index a duplicate-key error broke (its `keyPattern`), when the server says. */
export function duplicateKeyPaths(error: unknown): readonly string[] {
  if (error instanceof DuplicateInOwnWrite) return error.keyPaths;
  const pattern = (mongoServerErrorOf(error) as { keyPattern?: unknown } | undefined)?.keyPattern;
  return typeof pattern === 'object' && pattern !== null ? Object.keys(pattern) : [];
}

/** MongoDB's DocumentValidationFailure and DuplicateKey. */
const DOCUMENT_VALIDATION_FAILURE = 121;
const DUPLICATE_KEY = 11000;

const WHY_NOT_RETRIED: Record<RetryLimit, string> = {
  attempts: 'that is the most maxTransactionAttempts allows',
  time: 'no retry could start within transactionRetryMs',
  roundTrips: "another attempt could exceed the operation's round-trip limit (maxRoundTrips)",
};

/**
 * A mutation's transaction conflicted with other writes (another transaction holds a document it
 * writes) in each of its `attempts`, and `limit` stopped the retries; every attempt was rolled back.
 */
export function writeConflict(coordinate: string, attempts: number, limit: RetryLimit, cause: Error): GraphQLError {
  return new GraphQLError(
    `${coordinate}: its transaction conflicted with other writes in each of ${attempts} attempt(s), and ${WHY_NOT_RETRIED[limit]}; nothing was written, try again later`,
    { extensions: { code: PublicErrorCode.WRITE_CONFLICT, attempts, retryLimit: limit }, originalError: cause },
  );
}

/**
 * An update of a `typeName` document checked what it read of the document, and another write changed
 * it before the update could go ahead on it (only without a transaction); nothing was written.
 */
export function changedSinceRead(typeName: string): GraphQLError {
  return new GraphQLError(`${typeName}: another write changed the document between the update's check and its write; nothing was written, try again`, {
    extensions: { code: PublicErrorCode.WRITE_CONFLICT },
  });
}

/**
 * Test seam (not part of the package's API): the write units of the gateway whose storage map is a key
 * throw after that many write commands, as if the process died between two writes.
 */
export const injectedWriteFailures = new WeakMap<object, number>();

/** Thrown through `injectedWriteFailures`: the process "dies" between two writes. */
export class InjectedWriteFailure extends Error {
  override readonly name = 'InjectedWriteFailure';
  constructor(readonly afterWrites: number) {
    super(`injected failure after ${afterWrites} write command(s)`);
  }
}
