import { HeaderMap, type ApolloServerOptions, type ApolloServerPlugin, type BaseContext, type GraphQLRequestContextResponseForOperation, type GraphQLResponse } from '@apollo/server';
import { GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type { OperationPlanner } from '../../operation/plan/operation-planner';
import { executeOwnedOperation } from './owned-execution';
import type { GatewayContext } from '../context/request-context';

/** How Apollo Server is configured to shape errors; the compiled answers are shaped the same way. */
export interface ErrorShaping<TContext extends BaseContext> {
  /** The server's `formatError`, if any. */
  readonly formatError?: ApolloServerOptions<TContext>['formatError'];
  /** The server's `includeStacktraceInErrorResponses`. */
  readonly includeStacktraceInErrorResponses: boolean;
}

/**
 * A plugin that runs each operation docjoin owns end to end (owned-plan.ts; mutations and hand-written
 * root fields only within `scope`) straight from its plan (owned-execution.ts), in Apollo Server's
 * `responseForOperation` hook: the same resolvers with the arguments, paths and infos graphql-js gives
 * them, without a resolver call per leaf or a promise per object. Every other operation (hand-written
 * resolvers below the root, abstract types, connections, introspection), and every request Apollo must
 * refuse (no operation to pick, variables that do not coerce), is left to Apollo's own execution on
 * graphql-js.
 *
 * The plan and the coerced variables come from the planner (plan/operation-planner.ts), which made them
 * once for the request. Errors are shaped as Apollo shapes them (`shapeError` below): a code on each,
 * `extensions.http` moved to the response's status and headers, the stack trace when asked, then
 * `formatError`. The hook skips Apollo's execution hooks: `executionDidStart` and `didEncounterErrors`
 * do not run for owned operations.
 */
export function compiledExecutionPlugin<TContext extends BaseContext & Pick<GatewayContext, 'overrides' | 'ledger' | 'deadline' | 'countResponseList'>>(
  schema: GraphQLSchema,
  planner: OperationPlanner,
  shaping: ErrorShaping<TContext>,
  scope: ExecutionScope = {},
): ApolloServerPlugin<TContext> {
  const answer = async (request: GraphQLRequestContextResponseForOperation<TContext>): Promise<GraphQLResponse | null> => {
    const prepared = planner.prepare(request);
    const owned = prepared?.plan.owned;
    if (!owned) return null;
    if (!scope.mutationsAndHandWrittenRoots && (owned.operation.operation === 'mutation' || owned.handWrittenRoots)) return null;
    const context = request.contextValue;
    const result = await executeOwnedOperation({
      schema,
      owned,
      contextValue: context,
      variableValues: prepared.variables,
      stoppedBy: () => context.deadline.stoppedBy,
      countLeafList: (type, list) => context.countResponseList(type, list, owned.operation.operation),
    });
    const http = { status: undefined as number | undefined, headers: new HeaderMap() };
    const errors = result.errors?.map((error) => shapeError(error, shaping, http));
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

/**
 * Which owned operations the plugin runs. Queries below generated root fields run only docjoin's own
 * resolvers; a mutation or a hand-written root resolver runs code the server's other plugins may
 * expect to see through Apollo's execution hooks (willResolveField: tracing, authorization,
 * `info.cacheControl`), which this hook skips. createGateway runs them all (its Apollo has no other
 * plugin and cache control off); an Apollo of yours runs them on graphql-js unless you ask.
 */
export interface ExecutionScope {
  readonly mutationsAndHandWrittenRoots?: boolean;
}

/**
 * One execution error as Apollo Server shapes it: `extensions.code` (INTERNAL_SERVER_ERROR when the
 * error has none), `extensions.http` taken out into the response's status and headers, the stack trace
 * when the server includes them, then the server's `formatError`; a formatError that throws gives an
 * internal error instead.
 */
export function shapeError<TContext extends BaseContext>(error: GraphQLError, shaping: ErrorShaping<TContext>, http: { status: number | undefined; headers: HeaderMap }): GraphQLFormattedError {
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
