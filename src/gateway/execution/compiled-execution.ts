import { HeaderMap, type ApolloServerOptions, type ApolloServerPlugin, type BaseContext, type GraphQLRequestContextResponseForOperation, type GraphQLResponse } from '@apollo/server';
import { execute, getVariableValues, GraphQLError, type DocumentNode, type ExecutionResult, type GraphQLFormattedError, type GraphQLSchema, type SourceLocation } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { executeOwnedOperation } from './owned-execution';
import { planOwnedOperation, type OwnedOperation, type Ownership } from './owned-plan';

/** How Apollo Server is configured to shape errors; the compiled answers are shaped the same way. */
export interface ErrorShaping<TContext extends BaseContext> {
  /** The server's `formatError`, if any. */
  readonly formatError?: ApolloServerOptions<TContext>['formatError'];
  /** The server's `includeStacktraceInErrorResponses`. */
  readonly includeStacktraceInErrorResponses: boolean;
}

/**
 * A plugin that executes each operation with graphql-jit instead of graphql-js, in Apollo Server's
 * `responseForOperation` hook: the operation is compiled once into a JavaScript function (field lookups,
 * argument values, list and null handling written out for that selection) and run for every request
 * that sends it. Apollo keeps each query string's parsed document in its document store, so the compiled
 * form is cached per document and lives as long as Apollo keeps it.
 *
 * Parsing, validation and the other plugins stay Apollo's. Variables that do not coerce are left to
 * Apollo, which refuses them as it always does (BAD_USER_INPUT, HTTP 400) without executing anything.
 * Errors are shaped as Apollo shapes them (`errors` below): a code on each, `extensions.http` moved to
 * the response's status and headers, the stack trace when asked, then `formatError`. The hook skips
 * Apollo's execution hooks: `executionDidStart` and `didEncounterErrors` do not run for these operations.
 * An operation graphql-jit cannot compile runs on graphql-js.
 *
 * With `ownership`, a query docjoin owns end to end (owned-plan.ts) is not compiled: it runs straight
 * from its plan (owned-execution.ts), the same resolvers with the same arguments and paths, without a
 * resolver call per parent and leaf.
 */
export function compiledExecutionPlugin<TContext extends BaseContext>(schema: GraphQLSchema, shaping: ErrorShaping<TContext>, ownership?: Ownership): ApolloServerPlugin<TContext> {
  const plans = new WeakMap<DocumentNode, Map<string, OperationPlan>>();
  const planFor = (document: DocumentNode, operationName: string | null): OperationPlan => {
    let byOperation = plans.get(document);
    if (!byOperation) plans.set(document, (byOperation = new Map()));
    const key = operationName ?? '';
    let plan = byOperation.get(key);
    if (plan) return plan;
    const owned = ownership && planOwnedOperation(schema, document, operationName, ownership);
    if (owned) {
      plan = { owned };
    } else {
      const result = compileQuery(schema, document, operationName ?? undefined);
      plan = isCompiledQuery(result) ? { query: result } : {};
    }
    byOperation.set(key, plan);
    return plan;
  };
  const answer = async ({ document, operation, operationName, contextValue, request }: GraphQLRequestContextResponseForOperation<TContext>): Promise<GraphQLResponse | null> => {
    const variables = request.variables ?? {};
    const coerced = operation.variableDefinitions?.length ? getVariableValues(schema, operation.variableDefinitions, variables, { maxErrors: 1 }) : { coerced: {} };
    if (coerced.errors) return null;
    const { owned, query } = planFor(document, operationName);
    const result: ExecutionResult = owned
      ? await executeOwnedOperation({ schema, owned, contextValue, variableValues: coerced.coerced })
      : query
        ? await query.query(undefined, contextValue, variables)
        : await execute({ schema, document, contextValue, variableValues: variables, ...(operationName !== null && { operationName }) });
    const http = { status: undefined as number | undefined, headers: new HeaderMap() };
    const errors = result.errors?.map((error) => shapeError(query ? asGraphqlJsError(error, document) : error, shaping, http));
    return { http, body: { kind: 'single', singleResult: { ...(errors && { errors }), data: result.data, ...(result.extensions && { extensions: result.extensions }) } } };
  };
  // The hook keeps nothing per request: every request shares one listener.
  const listener = { responseForOperation: answer };
  return {
    async requestDidStart() {
      return listener;
    },
  };
}

/** How one operation runs: from docjoin's own plan, compiled by graphql-jit, or (neither) on graphql-js. */
interface OperationPlan {
  readonly owned?: OwnedOperation;
  readonly query?: CompiledQuery;
}

/**
 * One execution error as Apollo Server shapes it: `extensions.code` (INTERNAL_SERVER_ERROR when the
 * error has none), `extensions.http` taken out into the response's status and headers, the stack trace
 * when the server includes them, then the server's `formatError`; a formatError that throws gives an
 * internal error instead.
 */
function shapeError<TContext extends BaseContext>(error: GraphQLError, shaping: ErrorShaping<TContext>, http: { status: number | undefined; headers: HeaderMap }): GraphQLFormattedError {
  const enrich = (from: GraphQLError): GraphQLFormattedError => {
    const { http: httpExtension, ...extensions } = { ...from.extensions, code: from.extensions.code ?? 'INTERNAL_SERVER_ERROR' } as Record<string, unknown>;
    if (isHttpHead(httpExtension)) {
      if (httpExtension.status !== undefined) http.status = httpExtension.status;
      for (const [name, value] of httpExtension.headers ?? []) http.headers.set(name, value);
    } else if (httpExtension !== undefined) extensions.http = httpExtension;
    if (shaping.includeStacktraceInErrorResponses) extensions.stacktrace = from.stack?.split('\n');
    return { ...from.toJSON(), extensions };
  };
  if (!shaping.formatError) return enrich(error);
  try {
    return shaping.formatError(enrich(error), error);
  } catch (formatError) {
    if (shaping.includeStacktraceInErrorResponses) return enrich(asGraphQLError(formatError));
    return { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
  }
}

/** What a throw gave, as a GraphQLError. */
function asGraphQLError(thrown: unknown): GraphQLError {
  if (thrown instanceof GraphQLError) return thrown;
  if (thrown instanceof Error) return new GraphQLError(thrown.message, { originalError: thrown });
  return new GraphQLError(`Unexpected error value: ${String(thrown)}`);
}

/** `extensions.http` as Apollo reads it: a status number and/or a Map of headers. */
function isHttpHead(value: unknown): value is { status?: number; headers?: Map<string, string> } {
  if (value === null || typeof value !== 'object') return false;
  const head = value as { status?: unknown; headers?: unknown };
  return (!('status' in head) || typeof head.status === 'number') && (!('headers' in head) || head.headers instanceof Map);
}

/**
 * graphql-jit's errors are GraphQLErrors by prototype only: no `extensions` object (Apollo reads its
 * `code`) and locations without nodes. The same error as graphql-js builds it: message, path, original
 * error and its extensions, and the locations as positions in the operation's source.
 */
function asGraphqlJsError(error: GraphQLError, document: DocumentNode): GraphQLError {
  const source = document.loc?.source;
  const locations: readonly SourceLocation[] = error.locations ?? [];
  return new GraphQLError(error.message, {
    ...(source && locations.length > 0 && { source, positions: locations.map((location) => positionOf(source.body, location)) }),
    ...(error.path && { path: error.path }),
    ...(error.originalError && { originalError: error.originalError }),
    ...(error.extensions && { extensions: error.extensions }),
  });
}

/** The character offset of a 1-based line and column in `body`. */
function positionOf(body: string, location: SourceLocation): number {
  let offset = 0;
  for (let line = 1; line < location.line; line++) {
    const next = body.indexOf('\n', offset);
    if (next < 0) break;
    offset = next + 1;
  }
  return offset + location.column - 1;
}
