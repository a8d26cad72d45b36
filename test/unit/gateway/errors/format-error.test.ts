import { GraphQLError } from 'graphql';
import { MongoBulkWriteError, MongoInvalidArgumentError, MongoNetworkError, MongoServerError, MongoServerSelectionError, MongoTransactionError, MongoWriteConcernError } from 'mongodb';
import { createFormatError } from '../../../../src/gateway/errors/format-error';
import { DatabaseFailure } from '../../../../src/gateway/errors/internal-errors';
import { badUserInput } from '../../../../src/gateway/errors/public-error-code';
import { writeConflict } from '../../../../src/gateway/writes/write-errors';

const production = createFormatError({ production: true });
const development = createFormatError({ production: false });
const stack = { stacktrace: ['Error: boom', '    at x.ts:1'] };

describe('formatError', () => {
  it('keeps BAD_USER_INPUT (even wrapped by graphql-js validation) and drops the http hint and stack in production', () => {
    const original = badUserInput('first must be between 0 and 100, got 500');
    const wrapped = new GraphQLError('Expected value of type "DateTime"', { originalError: original });
    expect(production({ message: wrapped.message, extensions: { code: 'GRAPHQL_VALIDATION_FAILED', ...stack } }, wrapped)).toEqual({
      message: 'Expected value of type "DateTime"',
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  it('takes the names graphql-js suggests off the end of a message where schema details are hidden, and only there', () => {
    const message = 'Variable "$s" got invalid value "DNOE"; Value "DNOE" does not exist in "TaskStatus" enum. Did you mean the enum value "DONE"?';
    const error = new GraphQLError(message);
    const given = { message, extensions: { code: 'BAD_USER_INPUT' } };
    expect(createFormatError({ production: true, hideSuggestions: true })(given, error).message).toBe('Variable "$s" got invalid value "DNOE"; Value "DNOE" does not exist in "TaskStatus" enum.');
    expect(production(given, error).message).toBe(message);
  });

  it('maps database failures to DATABASE_UNAVAILABLE without their details', () => {
    const ended = Object.assign(new Error('This socket has been ended by the other party'), { code: 'EPIPE' });
    const selection = new MongoServerSelectionError('Server selection timed out after 5000 ms', { type: 'Unknown', servers: new Map() } as unknown as ConstructorParameters<typeof MongoServerSelectionError>[1]);
    const causes = [
      new MongoNetworkError('connection refused'),
      new MongoServerError({ message: 'shutting down', code: 91 }),
      ended,
      // A bulk write the driver could not send wraps why, with no code of its own.
      new MongoBulkWriteError(selection, {} as unknown as ConstructorParameters<typeof MongoBulkWriteError>[1]),
      new MongoWriteConcernError({ ok: 1, writeConcernError: { code: 64, errmsg: 'waiting for replication timed out' } } as unknown as ConstructorParameters<typeof MongoWriteConcernError>[0]),
      new MongoServerError({ message: 'Could not find host matching read preference', code: 133 }),
    ];
    for (const cause of causes) {
      const error = new GraphQLError(`MongoDB command on books failed: ${cause.message}`, { originalError: new DatabaseFailure('books', cause) });
      expect(production({ message: error.message, extensions: { code: 'INTERNAL_SERVER_ERROR', ...stack } }, error)).toEqual({
        message: 'The database is unavailable; try again later',
        extensions: { code: 'DATABASE_UNAVAILABLE' },
      });
    }
  });

  it('maps a command MongoDB refused, or an error that is not the driver\'s, to INTERNAL_SERVER_ERROR: the database answered', () => {
    const refused = new MongoServerError({ message: "The path 'authors' must exist in the document in order to apply array updates.", code: 2 });
    for (const cause of [refused, new TypeError('x is undefined'), new MongoInvalidArgumentError('Update document requires atomic operators'), new MongoTransactionError('Transaction already in progress')]) {
      const error = new GraphQLError(`MongoDB command on books failed: ${cause.message}`, { originalError: new DatabaseFailure('books', cause) });
      expect(production({ message: error.message, extensions: { code: 'INTERNAL_SERVER_ERROR', ...stack } }, error)).toEqual({ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
    }
  });

  it('keeps WRITE_CONFLICT, its message and attempts, in production', () => {
    const original = writeConflict('Mutation.addComment', 5, 'attempts', new Error('WriteConflict'));
    const error = new GraphQLError(original.message, { originalError: original, path: ['addComment'] });
    expect(production({ message: error.message, extensions: { ...original.extensions, ...stack } }, error)).toEqual({
      message: 'Mutation.addComment: its transaction conflicted with other writes in each of 5 attempt(s), and that is the most maxTransactionAttempts allows; nothing was written, try again later',
      extensions: { code: 'WRITE_CONFLICT', attempts: 5, retryLimit: 'attempts' },
    });
  });

  it('tells onInternalError of each error it answers INTERNAL_SERVER_ERROR, and of no other', () => {
    const heard: unknown[] = [];
    const format = createFormatError({ production: true, onInternalError: (error) => heard.push(error) });
    const internal = new GraphQLError('x is undefined', { originalError: new TypeError('x is undefined') });
    format({ message: internal.message, extensions: { code: 'INTERNAL_SERVER_ERROR' } }, internal);
    const input = badUserInput('first must be between 0 and 100, got 500');
    format({ message: input.message, extensions: { code: 'BAD_USER_INPUT' } }, input);
    expect(heard).toEqual([internal]);
  });

  it('hides unexpected errors in production but not in development', () => {
    const error = new GraphQLError('x is undefined', { originalError: new TypeError('x is undefined') });
    expect(production({ message: 'x is undefined', extensions: { code: 'INTERNAL_SERVER_ERROR', ...stack } }, error)).toEqual({
      message: 'Internal server error',
      extensions: { code: 'INTERNAL_SERVER_ERROR' },
    });
    expect(development({ message: 'x is undefined', extensions: { code: 'INTERNAL_SERVER_ERROR', ...stack } }, error)).toEqual({
      message: 'x is undefined',
      extensions: { code: 'INTERNAL_SERVER_ERROR', ...stack },
    });
  });

  it('gives a request Apollo refused with a 4xx status and no code BAD_REQUEST, in its words (not INTERNAL_SERVER_ERROR)', () => {
    const refused = new GraphQLError('Unsupported persisted query version', { extensions: { http: { status: 400 } } });
    expect(production({ message: refused.message, extensions: { code: 'INTERNAL_SERVER_ERROR', ...stack } }, refused)).toEqual({
      message: 'Unsupported persisted query version',
      extensions: { code: 'BAD_REQUEST' },
    });
    const failed = new GraphQLError('x is undefined', { extensions: { http: { status: 500 } } });
    expect(production({ message: failed.message, extensions: { code: 'INTERNAL_SERVER_ERROR' } }, failed)).toEqual({ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
  });

  it('passes Apollo\'s own codes through', () => {
    const error = new GraphQLError('Cannot query field "nope" on type "Query".');
    expect(production({ message: error.message, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }, error)).toEqual({
      message: error.message,
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
  });
});
