import type { CostReport } from './cost-report';

/**
 * What the cost panel shows of one response: its `extensions.cost`, and whether it was refused before
 * execution (`errors` and no `data`), failed (`data: null`), came with errors beside its data, or never
 * came.
 */
export type Outcome = 'answered' | 'rejected' | 'failed' | 'partial' | 'unanswered';

export interface ResponseError {
  /** `extensions.code`, when the error has one. */
  readonly code: string | undefined;
  readonly message: string;
}

export interface LastResponse {
  readonly outcome: Outcome;
  readonly errors: readonly ResponseError[];
  /** Undefined when the response has none (e.g. a request refused before docjoin's plugin ran). */
  readonly cost: CostReport | undefined;
}

/** Reads a GraphQL response body as the fetcher received it. */
export function readLastResponse(result: unknown): LastResponse {
  const body = (typeof result === 'object' && result !== null ? result : {}) as { data?: unknown; errors?: unknown; extensions?: { cost?: CostReport } };
  const errors = Array.isArray(body.errors) ? body.errors.map(readError) : [];
  return { outcome: outcomeOf(body, errors), errors, cost: body.extensions?.cost };
}

/** A request that got no GraphQL response (network failure, a body that is not JSON). */
export function unanswered(error: unknown): LastResponse {
  return { outcome: 'unanswered', errors: [{ code: undefined, message: error instanceof Error ? error.message : String(error) }], cost: undefined };
}

function outcomeOf(body: { readonly data?: unknown }, errors: readonly ResponseError[]): Outcome {
  if (errors.length === 0) return 'answered';
  if (!('data' in body)) return 'rejected';
  return body.data === null ? 'failed' : 'partial';
}

function readError(error: unknown): ResponseError {
  const { message, extensions } = (typeof error === 'object' && error !== null ? error : {}) as { message?: unknown; extensions?: { code?: unknown } };
  return { code: typeof extensions?.code === 'string' ? extensions.code : undefined, message: typeof message === 'string' ? message : JSON.stringify(error) };
}
