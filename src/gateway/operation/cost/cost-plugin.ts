import type { ApolloServerPlugin, BaseContext, GraphQLRequestContext, GraphQLRequestContextDidResolveOperation } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { CostEstimate } from '../estimate/estimate-operation';
import { badUserInput, PublicErrorCode } from '../../errors/public-error-code';
import type { CostLedger, CostReport } from '../../request/cost/cost-ledger';
import { costLimitExceeded, findExceededLimit, limitOrigin, roundTripLimitReached, type CostLimits, type LimitOrigins } from './cost-limits';
import { findEstimateViolations, type EstimateViolationRecorder } from './estimate-check';
import { quoteInput } from '../../errors/quote-input';
import { unservedOperation } from '../plan/unserved-operation';

/** `x-docjoin-cost: commands` asks for the per-command debug view; `summary` is the default view. */
export const COST_HEADER = 'x-docjoin-cost';
export type CostView = 'summary' | 'commands';
const COST_VIEWS: readonly CostView[] = ['summary', 'commands'];

/**
 * The view an `x-docjoin-cost` value asks for (absent: summary). Any other value is BAD_USER_INPUT, as
 * for `x-docjoin-strategy`: a misspelt `command` must not quietly give the summary.
 */
export function parseCostHeader(value: string | undefined): CostView {
  const view = value?.trim().toLowerCase();
  if (view === undefined || view === '') return 'summary';
  if (COST_VIEWS.includes(view as CostView)) return view as CostView;
  throw badUserInput(`${COST_HEADER} must be "summary" or "commands", got ${quoteInput(value)}`, { header: COST_HEADER }, { beforeExecution: true });
}

const UNITS = { roundTrips: 'round trips', documents: 'documents' } as const;

/** Options of ApolloServerPluginDocjoinCost. */
export interface DocjoinCostOptions<TContext extends BaseContext> {
  /** The `extensions` key to write (default `cost`). */
  readonly extensionKey?: string;
  /** Write the report to `extensions` (default true); false leaves only the estimate's limits and admission. */
  readonly report?: boolean;
  /** The static estimate, made once the operation is resolved; undefined skips the limits (e.g. bad variables). */
  readonly estimate?: (request: GraphQLRequestContextDidResolveOperation<TContext>) => CostEstimate | undefined;
  /**
   * Operations whose estimate exceeds a limit are rejected with COST_LIMIT_EXCEEDED before execution.
   * `maxRoundTrips` also bounds a mutation's transaction retries at run time (CostLedger.mayRetry).
   */
  readonly limits?: Partial<CostLimits>;
  /** Where each limit was set, for the rejection's message (limitOrigin), and the limits option as given. */
  readonly limitOrigins?: LimitOrigins;
  readonly givenLimits?: unknown;
  /** Whether this request gets `extensions.cost.commands` (decide from the header and the configuration). */
  readonly commandsView?: (request: GraphQLRequestContext<TContext>) => boolean;
  /**
   * Compare every operation's measured round trips and documents with its estimate (on under test, so
   * every operation any test runs checks that the estimate is an upper bound). A violation adds an
   * INTERNAL_SERVER_ERROR to the response and goes to `onEstimateViolation`. Mutations too: their
   * estimate bounds one attempt of each write unit, so commands of retried attempts are left out.
   */
  readonly checkEstimate?: boolean;
  /** Told of each violation the check finds, so a test run fails even where no test reads `errors`. */
  readonly onEstimateViolation?: EstimateViolationRecorder;
  /**
   * Admission by estimate, once the limits passed: resolves (with a release, called once the response
   * is sent) when the operation may execute, e.g. when its documents fit the DocumentBudget.
   */
  readonly admit?: (estimate: CostEstimate, context: TContext) => Promise<() => void>;
  /**
   * Throws to refuse the operation before it is estimated or admitted (access rules, trusted
   * documents): run here, in this plugin's own hook, no refusal can race the admission.
   */
  readonly refuse?: (request: GraphQLRequestContextDidResolveOperation<TContext>) => void;
  /**
   * Read once the admission is released: the client budget's figures for this request (requested and
   * actual points, the bucket after it), added to the report; undefined adds nothing.
   */
  readonly budgetReport?: (context: TContext) => Pick<CostReport, 'requestedPoints' | 'actualPoints' | 'throttleStatus'> | undefined;
  /**
   * Given, once the operation is estimated, the response extensions of its cost so far (the report key
   * and the ledger's report with the estimate), for an answer sent before the operation ends (a timeout
   * at its overrun). Not called without a cost report.
   */
  readonly reportSoFar?: (context: TContext, extensions: () => Record<string, unknown>) => void;
  /** Under access rules, whether the request's viewer reads every row of a collection (the report withholds write counts of others). */
  readonly readsEveryRow?: (context: TContext) => ((collection: string) => boolean) | undefined;
  /** Under access rules, whether a relation field's keys and dangling references may be shown to the request's viewer (ReportOptions.keysShown). */
  readonly keysShown?: (context: TContext) => ((coordinate: string) => boolean) | undefined;
  /** Under access rules, whether the replies' bytes may be shown to the request's viewer (ReportOptions.replyBytesShown). */
  readonly replyBytesShown?: (context: TContext) => boolean;
}

/**
 * Before execution: estimates the operation and enforces the limits. After: writes the request ledger's
 * report plus the estimate to `extensions.cost` of every single-result response. It never overwrites an
 * existing key: another plugin that got there first keeps its value.
 */
export function ApolloServerPluginDocjoinCost<TContext extends { readonly ledger: CostLedger }>(options: DocjoinCostOptions<TContext> = {}): ApolloServerPlugin<TContext> {
  const key = options.extensionKey ?? 'cost';
  return {
    async requestDidStart() {
      let estimate: CostEstimate | undefined;
      let release: (() => void) | undefined;
      let admission: Promise<() => void> | undefined;
      return {
        async didResolveOperation(request) {
          const unserved = request.operation && unservedOperation(request.schema, request.operation.operation);
          if (unserved) throw new GraphQLError(unserved, { extensions: { code: PublicErrorCode.OPERATION_NOT_SUPPORTED, http: { status: 400 } } });
          options.refuse?.(request);
          estimate = options.estimate?.(request);
          const excess = estimate && options.limits ? findExceededLimit(estimate, options.limits) : undefined;
          if (excess) throw costLimitExceeded(excess, estimate, limitOrigin(excess.limit, options.givenLimits, options.limitOrigins));
          if (estimate && options.admit) {
            admission = options.admit(estimate, request.contextValue);
            release = await admission;
          }
          if (options.report !== false && options.reportSoFar) {
            const { ledger } = request.contextValue;
            const readsEveryRow = options.readsEveryRow?.(request.contextValue);
            const keysShown = options.keysShown?.(request.contextValue);
            const replyBytesShown = options.replyBytesShown?.(request.contextValue);
            options.reportSoFar(request.contextValue, () => ({
              [key]: ledger.report({ estimatedRoundTrips: estimate?.roundTrips ?? 0, estimatedDocuments: estimate?.documents ?? 0, commands: false, readsEveryRow, keysShown, replyBytesShown }),
            }));
          }
          // The estimate covers one attempt of each write unit; retries may spend what the limit leaves.
          const maxRoundTrips = options.limits?.maxRoundTrips;
          if (estimate && maxRoundTrips !== undefined) {
            const origin = limitOrigin('roundTrips', options.givenLimits, options.limitOrigins);
            request.contextValue.ledger.limitRoundTrips({ estimated: estimate.roundTrips, max: maxRoundTrips, refusal: roundTripRefusal(estimate.roundTrips, maxRoundTrips, origin) });
          }
        },
        async executionDidStart({ contextValue }) {
          return {
            // Reads an early answer left running (graphql-js's, at a failed non-null field) are counted, and keep the documents they were admitted for, until they end.
            async executionDidEnd() {
              await contextValue.ledger.readsSettled();
            },
          };
        },
        async willSendResponse(request) {
          // Another plugin's refusal can send the response while the admission still waits: it is given back once it comes.
          if (release) release();
          else admission?.then((late) => late(), () => undefined);
          const { response, contextValue } = request;
          if (response.body.kind !== 'single' || options.report === false) return;
          const result = response.body.singleResult;
          const extensions = (result.extensions ??= {});
          if (key in extensions) return;
          const report = contextValue.ledger.report({
            estimatedRoundTrips: estimate?.roundTrips ?? 0,
            estimatedDocuments: estimate?.documents ?? 0,
            commands: options.commandsView?.(request) ?? false,
            readsEveryRow: options.readsEveryRow?.(contextValue),
            keysShown: options.keysShown?.(contextValue),
            replyBytesShown: options.replyBytesShown?.(contextValue),
          });
          const budget = options.budgetReport?.(contextValue);
          if (budget) Object.assign(report, budget);
          extensions[key] = report;
          if (!request.operation || (!estimate && !options.checkEstimate)) return;
          // Nearly always: nothing to look into.
          if (estimate && report.roundTrips <= estimate.roundTrips && report.documents <= estimate.documents) return;
          const retried = contextValue.ledger.retriedAttempts();
          const measured = { roundTrips: report.roundTrips - retried.roundTrips, documents: report.documents - retried.documents };
          const violations = findEstimateViolations(measured, estimate, {
            operationName: request.operationName ?? undefined,
            query: request.source,
            variables: request.request.variables,
          });
          // Said in the response, and counted in /metrics, whenever an estimate was made: never in silence.
          if (estimate && violations.length > 0) report.estimateExceeded = violations.map((violation) => violation.measure);
          if (options.checkEstimate) {
            for (const violation of violations) {
              options.onEstimateViolation?.(violation);
              const error = new GraphQLError(`docjoin: the static estimate (${violation.estimated} ${UNITS[violation.measure]}) is below the measured cost (${violation.measured})`, {
                extensions: { code: PublicErrorCode.INTERNAL_SERVER_ERROR },
              });
              result.errors = [...(result.errors ?? []), error.toJSON()];
            }
          }
        },
      };
    },
  };
}

/**
 * The error a read past the round-trip limit gets, made outside the hook so that it holds these three
 * values only: a closure made in the hook keeps the hook's scopes, and with them the admission, whose
 * release holds the request's context and every document it read. The ledger keeping the closure can
 * be promoted to V8's old generation while its request runs, and a dead old object keeps what it points
 * to through young-generation collections until the next full one.
 */
function roundTripRefusal(estimated: number, max: number, origin: string): (fields: readonly string[]) => Error {
  return (fields) => roundTripLimitReached({ estimated, max, origin, fields });
}
