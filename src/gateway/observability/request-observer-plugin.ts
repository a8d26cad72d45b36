import { performance } from 'node:perf_hooks';
import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import type { CostReport } from '../request/cost/cost-ledger';
import type { GatewayContext } from '../request/context/request-context';
import type { DocjoinLogger } from '../../observability/logger';
import { MAX_OPERATION_NAME_LENGTH, type GatewayMetrics } from './metrics';
import { PublicErrorCode } from '../errors/public-error-code';

export interface RequestObserverOptions {
  readonly logger: DocjoinLogger;
  readonly metrics: GatewayMetrics | undefined;
  /** Operations at least this long are logged as slow (warn). */
  readonly slowOperationMs: number;
  /** Include the request's variables in its log line (off by default: they may hold personal data). */
  readonly logVariables: boolean;
  /** Told when a request failed because MongoDB could not be reached, and when one reached it. */
  readonly onDatabaseUnavailable?: () => void;
  readonly onDatabaseReached?: () => void;
}

const FAILURES = new Set(['INTERNAL_SERVER_ERROR', 'DATABASE_UNAVAILABLE', 'OPERATION_TIMEOUT']);

/**
 * A request answered before it started (a bad header, its body refused or late, OVERLOADED at the
 * door): counted under no operation name (its body was not read or parsed) and logged as refused,
 * with what it named (a header's name, never its value). One its client gave up on before then
 * (OPERATION_CANCELLED: while sending its body, or queued) is counted too, and logged as abandoned.
 */
export function observeRefusal(options: Pick<RequestObserverOptions, 'logger' | 'metrics'>, code: string, details: Readonly<Record<string, string>> = {}): void {
  countRefusal(options, code);
  if (code === PublicErrorCode.OPERATION_CANCELLED) options.logger.info({ errorCodes: [code], ...details }, 'request abandoned by its client');
  else options.logger.warn({ errorCodes: [code], ...details }, 'request refused');
}

function countRefusal(options: Pick<RequestObserverOptions, 'metrics'>, code: string): void {
  options.metrics?.observe({ operationName: undefined, executed: false, durationSeconds: undefined, errorCode: code, cost: undefined, rejectedLimit: undefined });
}
const NO_CODES: readonly string[] = [];
const NOT_ACCEPTABLE = 406;
/** Hex digits of an anonymous operation's hash in its log line: enough to tell operations apart, short to read. */
const QUERY_HASH_LENGTH = 12;

/**
 * One log line per GraphQL request (operation name, or an anonymous one's hash, and type, duration, round
 * trips measured and estimated, documents, a mutation's fan-out, error codes), a warning for a slow one, and the request's metrics. It reads
 * `extensions.cost`, so it goes after the cost plugin. Never the query's values or the response's data.
 * The metrics and the line are recorded once the answer is written (GatewayContext.afterAnswer).
 */
export function requestObserverPlugin(options: RequestObserverOptions): ApolloServerPlugin<BaseContext & Pick<GatewayContext, 'afterAnswer'>> {
  return {
    // A request refused before it starts (a bad x-docjoin-* header): logged and counted too (its body is
    // not read, so under no operation name), with the header it named, never its value. An error with no
    // code is a bug in making the context, and one with a cause carries one: its message and stack are logged.
    async contextCreationDidFail({ error }) {
      const extensions = (error as { extensions?: { code?: unknown; header?: unknown; reason?: unknown } }).extensions;
      const code = typeof extensions?.code === 'string' ? extensions.code : undefined;
      if (code === undefined) {
        countRefusal(options, 'INTERNAL_SERVER_ERROR');
        options.logger.error({ err: error, errorCodes: ['INTERNAL_SERVER_ERROR'] }, 'request refused: its context could not be made');
      } else {
        observeRefusal(options, code, { ...(typeof extensions?.header === 'string' && { header: extensions.header }), ...(typeof extensions?.reason === 'string' && { reason: extensions.reason }) });
        // A refusal caused by an error of the server's own code (auth.authenticate's): that error is logged.
        const cause = (error as { originalError?: unknown }).originalError;
        if (cause instanceof Error) options.logger.error({ err: cause, errorCodes: [code] }, 'request refused: its context could not be made');
      }
    },
    // A request Apollo refused as BAD_REQUEST before any operation started (a body that is not a GraphQL request, a possible
    // cross-site request forgery, a batch): its messages are Apollo's own, never the request's values. A 406 (an
    // Accept header Apollo cannot answer) comes after its operation ran: that operation's line tells it (answeredWith).
    async invalidRequestWasReceived({ error }) {
      if ((error as { extensions?: { http?: { status?: number } } }).extensions?.http?.status === NOT_ACCEPTABLE) return;
      observeRefusal(options, 'BAD_REQUEST', { reason: error.message });
    },
    async requestDidStart() {
      const started = performance.now();
      return {
        async willSendResponse(request) {
          const durationMs = performance.now() - started;
          const body = request.response.body;
          const result = body.kind === 'single' ? body.singleResult : undefined;
          const cost = result?.extensions?.cost as CostReport | undefined;
          const errors = result?.errors;
          const codes = errors ? [...new Set(errors.map((error) => String(error.extensions?.code ?? 'INTERNAL_SERVER_ERROR')))] : NO_CODES;
          const rejection = errors?.find((error) => error.extensions?.code === 'COST_LIMIT_EXCEEDED')?.extensions?.cost as { limit?: string } | undefined;
          if (codes.includes('DATABASE_UNAVAILABLE')) options.onDatabaseUnavailable?.();
          else if ((cost?.roundTrips ?? 0) > 0) options.onDatabaseReached?.();
          const operation = {
            operation: request.operationName ? shortened(request.operationName) : undefined,
            // An operation without a name is told apart by its text's hash (Apollo's sha256), never by its text.
            ...((!request.operationName || request.operationName.length > MAX_OPERATION_NAME_LENGTH) && request.queryHash && { queryHash: request.queryHash.slice(0, QUERY_HASH_LENGTH) }),
            type: request.operation?.operation,
            durationMs: Math.round(durationMs * 10) / 10,
            ...(cost && { roundTrips: cost.roundTrips, estimatedRoundTrips: cost.estimatedRoundTrips, documents: cost.documents }),
            ...(cost?.writes && { fanOut: cost.writes.fanOut }),
          };
          const variables = options.logVariables && request.request.variables && { variables: request.request.variables };
          // The metrics and the log line, off the request's latency, with the error its client got instead of this answer, if any.
          request.contextValue.afterAnswer((answeredWith) => {
            const sent = answeredWith === undefined ? codes : [answeredWith];
            options.metrics?.observe({ operationName: request.operationName ?? undefined, executed: result?.data !== undefined, durationSeconds: durationMs / 1000, errorCode: sent[0], cost, rejectedLimit: rejection?.limit });
            const line = { ...operation, ...(sent.length > 0 && { errorCodes: sent }), ...variables };
            // A failure is an error however long it took (an outage's requests all wait out the server selection).
            if (sent.some((code) => FAILURES.has(code))) options.logger.error(line, 'operation failed');
            else if (durationMs >= options.slowOperationMs) options.logger.warn({ ...line, slowOperationMs: options.slowOperationMs }, 'slow operation');
            else options.logger.info(line, 'operation');
          });
        },
      };
    },
  };
}

/** A client's operation name as a log line holds it: a long one cut, with its length (its queryHash tells it apart). */
function shortened(name: string): string {
  return name.length <= MAX_OPERATION_NAME_LENGTH ? name : `${name.slice(0, MAX_OPERATION_NAME_LENGTH)}… (${name.length.toLocaleString('en')} characters)`;
}
