/**
 * A load generator for the fault scenarios: `clients` loops, each sending one GraphQL request after
 * another over HTTP until the time is up, recording every request with its outcome. A write's outcome
 * is what its client was told: `acked` (data, no error), `refused` (a GraphQL error: the server says it
 * did not happen), or `unknown` (no answer: a reset, a timeout), which a check must treat as "may have
 * happened".
 */

export interface PlannedRequest {
  /** A short name for the figures, e.g. `read books` or `addComment`. */
  readonly name: string;
  readonly query: string;
  readonly variables?: Readonly<Record<string, unknown>>;
  /** For a write: what it sets, so the checks can tell which final values some write explains. */
  readonly write?: { readonly kind: string; readonly key: string; readonly value: unknown };
}

export type Outcome = 'acked' | 'refused' | 'unknown';

export interface RequestRecord {
  readonly request: PlannedRequest;
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly status: number | undefined;
  readonly outcome: Outcome;
  /** The `extensions.code` of each error, in order. */
  readonly codes: readonly string[];
  /** The messages of the errors (checked for leaked internals). */
  readonly messages: readonly string[];
  readonly data: unknown;
  /** `extensions.cost.writes.attempts` of a write (runs of its transaction, retries included). */
  readonly attempts: number | undefined;
  /** Why no answer came: the socket error's code (`ECONNREFUSED`, `ECONNRESET`, …) or the error's name (`TimeoutError`). */
  readonly failure?: string;
}

export interface LoadOptions {
  readonly url: string;
  readonly clients: number;
  readonly durationMs: number;
  /** The next request of client `client` (its `n`th). */
  next(client: number, n: number): PlannedRequest;
  /** A request without an answer after this long counts as unknown (default 30 s). */
  readonly requestTimeoutMs?: number;
  /** Stops the loops early (the scenario's own signal). */
  readonly signal?: AbortSignal;
  /** A client whose request got no answer (the port closed) waits this long before its next (default 0). */
  readonly pauseAfterNoAnswerMs?: number;
}

export async function runLoad(options: LoadOptions): Promise<RequestRecord[]> {
  const records: RequestRecord[] = [];
  const end = Date.now() + options.durationMs;
  const loop = async (client: number) => {
    for (let n = 0; Date.now() < end && !options.signal?.aborted; n++) {
      const record = await send(options.url, options.next(client, n), options.requestTimeoutMs ?? 30_000);
      records.push(record);
      if (record.status === undefined && options.pauseAfterNoAnswerMs) await new Promise((resolve) => setTimeout(resolve, options.pauseAfterNoAnswerMs));
    }
  };
  await Promise.all(Array.from({ length: options.clients }, (_, client) => loop(client)));
  return records;
}

export async function send(url: string, request: PlannedRequest, timeoutMs = 30_000): Promise<RequestRecord> {
  const startedAt = Date.now();
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: request.query, variables: request.variables ?? {} }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    let body: { data?: unknown; errors?: Array<{ message?: string; extensions?: { code?: string } }>; extensions?: { cost?: { writes?: { attempts?: number } } } } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // A body that is not JSON (a proxy's page, a cut stream) is an answer with no data.
    }
    const errors = body.errors ?? [];
    const outcome: Outcome = errors.length === 0 && response.ok && body.data !== undefined ? 'acked' : errors.length > 0 || response.status >= 400 ? 'refused' : 'unknown';
    return {
      request,
      startedAt,
      finishedAt: Date.now(),
      status: response.status,
      outcome,
      codes: errors.map((error) => error.extensions?.code ?? '(none)'),
      messages: errors.map((error) => error.message ?? ''),
      data: body.data,
      attempts: body.extensions?.cost?.writes?.attempts,
    };
  } catch (error) {
    const failure = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
    return { request, startedAt, finishedAt: Date.now(), status: undefined, outcome: 'unknown', codes: [], messages: [], data: undefined, attempts: undefined, failure };
  }
}

export interface LoadFigures {
  readonly requests: number;
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly acked: number;
  readonly refused: number;
  readonly unknown: number;
  /** Refusals by `extensions.code`. */
  readonly codes: Readonly<Record<string, number>>;
}

export function figures(records: readonly RequestRecord[], durationMs: number): LoadFigures {
  const latencies = records.map((record) => record.finishedAt - record.startedAt).sort((a, b) => a - b);
  const at = (share: number) => latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))] ?? 0;
  const codes: Record<string, number> = {};
  for (const record of records) for (const code of record.codes) codes[code] = (codes[code] ?? 0) + 1;
  const count = (outcome: Outcome) => records.filter((record) => record.outcome === outcome).length;
  return {
    requests: records.length,
    perSecond: Math.round((records.length / durationMs) * 1000),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    acked: count('acked'),
    refused: count('refused'),
    unknown: count('unknown'),
    codes,
  };
}
