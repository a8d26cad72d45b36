import type { GraphQLFormattedError } from 'graphql';
import { GraphQLError } from 'graphql';
import { DatabaseFailure, OperationStopped, type StopReason } from './internal-errors';
import { PublicErrorCode } from './public-error-code';
import { cutQuotedInputs } from './quote-input';

/**
 * Apollo `formatError`: maps internal failures to public codes and hides their details in production;
 * `onInternalError` hears of each error answered INTERNAL_SERVER_ERROR, with its cause.
 * GraphQLErrors that already carry a public code keep it (even when graphql-js wrapped them, e.g. a
 * DateTime literal that failed to parse during validation).
 */
export function createFormatError(options: { production: boolean; hideSuggestions?: boolean; onInternalError?: (error: unknown) => void }) {
  return (given: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const formatted = { ...given, message: cutQuotedInputs(options.hideSuggestions ? withoutSuggestion(given.message) : given.message) };
    const publicCode = findPublicCode(error);
    if (
      publicCode === PublicErrorCode.BAD_USER_INPUT ||
      publicCode === PublicErrorCode.NOT_FOUND ||
      publicCode === PublicErrorCode.COST_LIMIT_EXCEEDED ||
      publicCode === PublicErrorCode.OPERATION_NOT_SUPPORTED ||
      publicCode === PublicErrorCode.WRITE_CONFLICT ||
      publicCode === PublicErrorCode.OVERLOADED ||
      publicCode === PublicErrorCode.OPERATION_TIMEOUT ||
      publicCode === PublicErrorCode.VALUE_OUT_OF_RANGE
    ) {
      return withCode(formatted, publicCode, options.production);
    }
    // Before DatabaseFailure: a read MongoDB stopped at its maxTimeMS is a timeout, not an outage.
    const stopped = findCause(error, (e) => e instanceof OperationStopped);
    if (stopped instanceof OperationStopped) {
      const extensions = stopped.maxResponseBytes === undefined ? {} : { maxBytes: stopped.maxResponseBytes };
      const formattedStop = withCode({ ...formatted, extensions: { ...formatted.extensions, ...extensions } }, STOPPED_CODES[stopped.reason], options.production);
      return { ...formattedStop, message: stopped.message };
    }
    const failure = findCause(error, (e) => e instanceof DatabaseFailure);
    if (failure instanceof DatabaseFailure && failure.unavailable) {
      return { ...withCode(formatted, PublicErrorCode.DATABASE_UNAVAILABLE, options.production), message: 'The database is unavailable; try again later' };
    }
    if (isRefusedRequest(error)) return withCode(formatted, PublicErrorCode.BAD_REQUEST, options.production);
    if (isArgumentValueError(error)) return withCode(formatted, PublicErrorCode.BAD_USER_INPUT, options.production);
    const code = formatted.extensions?.code;
    // Apollo's own codes (parse/validation/persisted queries) are already public and safe.
    if (typeof code === 'string' && code !== PublicErrorCode.INTERNAL_SERVER_ERROR) return stripStack(formatted, options.production);
    // The client is told nothing of it: the log keeps what happened.
    options.onInternalError?.(error);
    return {
      ...withCode(formatted, PublicErrorCode.INTERNAL_SERVER_ERROR, options.production),
      message: options.production ? 'Internal server error' : formatted.message,
    };
  };
}

/**
 * Apollo's refusal of a request it could not run, which it gives an HTTP 4xx status and no code (a
 * persisted query of another version, or whose hash is not its query's): the client's to fix, in its words.
 */
function isRefusedRequest(error: unknown): boolean {
  if (!(error instanceof GraphQLError) || error.extensions?.code !== undefined) return false;
  const status = (error.extensions?.http as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * graphql-js's refusal, during execution and without a code, of an argument's value as the client sent it:
 * a variable sent as null where the argument is non-null (`@include(if: $b)` with `$b: Boolean = true` and
 * `{ "b": null }`), or one it could not coerce. Apollo would call it internal; it is the client's to fix.
 */
function isArgumentValueError(error: unknown): boolean {
  return findCause(error, (e) => e instanceof GraphQLError && e.extensions?.code === undefined && ARGUMENT_VALUE_ERRORS.some((pattern) => pattern.test(e.message))) !== undefined;
}

/** graphql-js 16's messages for them (execution/values.ts, getArgumentValues). */
const ARGUMENT_VALUE_ERRORS: readonly RegExp[] = [
  /^Argument "\w+" of non-null type "[^"]+" must not be null\.$/,
  /^Argument "\w+" of required type "[^"]+" was provided the variable "\$\w+" which was not provided a runtime value\.$/,
  /^Argument "\w+" has invalid value [\s\S]+\.$/,
];

/** The public code of each reason an operation stops for. */
const STOPPED_CODES: Readonly<Record<StopReason, PublicErrorCode>> = {
  timeout: PublicErrorCode.OPERATION_TIMEOUT,
  'client-gone': PublicErrorCode.OPERATION_CANCELLED,
  'response-too-large': PublicErrorCode.RESPONSE_TOO_LARGE,
};

function withCode(formatted: GraphQLFormattedError, code: PublicErrorCode, production: boolean): GraphQLFormattedError {
  const { http: _http, ...extensions } = formatted.extensions ?? {};
  return stripStack({ ...formatted, extensions: { ...extensions, code } }, production);
}

function stripStack(formatted: GraphQLFormattedError, production: boolean): GraphQLFormattedError {
  if (!production || formatted.extensions === undefined) return formatted;
  const { stacktrace: _stack, exception: _exception, ...extensions } = formatted.extensions;
  return { ...formatted, extensions };
}

/** The first public code on the error or its causes. */
function findPublicCode(error: unknown): PublicErrorCode | undefined {
  const found = findCause(error, (e) => e instanceof GraphQLError && isPublicCode(e.extensions?.code));
  return found instanceof GraphQLError ? (found.extensions?.code as PublicErrorCode) : undefined;
}

function isPublicCode(code: unknown): code is PublicErrorCode {
  return typeof code === 'string' && (Object.values(PublicErrorCode) as string[]).includes(code);
}

/** Walks originalError / cause links (bounded, in case of cycles). */
function findCause(error: unknown, predicate: (e: unknown) => boolean): unknown {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== undefined && current !== null; depth++) {
    if (predicate(current)) return current;
    if (current instanceof GraphQLError && current.originalError) current = current.originalError;
    else if (current instanceof Error && current.cause !== undefined) current = current.cause;
    else return undefined;
  }
  return undefined;
}

/**
 * A message less the names graphql-js suggests at its end ("Did you mean the enum value "OPEN"?"):
 * Apollo's hideSchemaDetailsFromClientErrors takes them from validation errors only, and a variable's
 * value that does not coerce names its input type's fields and enum values the same way.
 */
function withoutSuggestion(message: string): string {
  return message.replace(/ ?Did you mean(.+?)\?$/s, '');
}
