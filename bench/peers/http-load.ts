import http from 'node:http';
import autocannon from 'autocannon';
import type { ThroughputWindow } from './peer-protocol';

/**
 * The runner's side of the HTTP peers: one request at a time on one kept-alive connection (latency),
 * and autocannon with `concurrency` connections (throughput). Each request's body comes from
 * `nextBody`, so the mutation comments on a different post each time.
 */
export interface GraphQLResponse {
  readonly data?: unknown;
  readonly errors?: ReadonlyArray<{ readonly message: string }>;
  readonly extensions?: { readonly cost?: { readonly roundTrips?: number } };
}

export interface SampleLimits {
  readonly minSamples: number;
  readonly maxSamples: number;
  readonly maxMs: number;
}

export class GraphQLHttpClient {
  readonly #agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  constructor(readonly port: number) {}

  /** One request; rejects on a non-200 status or a body with `errors`. */
  post(body: string): Promise<GraphQLResponse> {
    return new Promise((resolve, reject) => {
      const request = http.request(
        { host: '127.0.0.1', port: this.port, path: '/graphql', method: 'POST', agent: this.#agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            const text = Buffer.concat(chunks).toString('utf8');
            try {
              const parsed = JSON.parse(text) as GraphQLResponse;
              if (response.statusCode !== 200 || parsed.errors !== undefined) reject(new Error(`HTTP ${String(response.statusCode)}: ${text.slice(0, 500)}`));
              else resolve(parsed);
            } catch {
              reject(new Error(`HTTP ${String(response.statusCode)}, not JSON: ${text.slice(0, 500)}`));
            }
          });
          response.on('error', reject);
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  /** Sequential requests until `maxSamples`, or `maxMs` once `minSamples` are in: each one's latency. */
  async sequential(nextBody: () => string, limits: SampleLimits): Promise<number[]> {
    const latenciesMs: number[] = [];
    const started = performance.now();
    while (latenciesMs.length < limits.maxSamples && (latenciesMs.length < limits.minSamples || performance.now() - started < limits.maxMs)) {
      const body = nextBody();
      const requestStarted = performance.now();
      await this.post(body);
      latenciesMs.push(performance.now() - requestStarted);
    }
    return latenciesMs;
  }

  close(): void {
    this.#agent.destroy();
  }
}

export interface ThroughputResult extends ThroughputWindow {
  /** Anything but an answer: connection errors, timeouts, other statuses, GraphQL errors. */
  readonly failed: number;
}

/** autocannon with `concurrency` connections for `durationSeconds`; only answers with status 200 and no `errors` count. */
export async function throughput(port: number, nextBody: () => string, concurrency: number, durationSeconds: number): Promise<ThroughputResult> {
  let completed = 0;
  let graphqlErrors = 0;
  let firstMs = 0;
  let lastMs = 0;
  let latencyMs = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/graphql`,
    connections: concurrency,
    pipelining: 1,
    duration: durationSeconds,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        // A connection sends its next request once its previous one is answered (pipelining 1): the
        // connection's context holds when it was set up.
        setupRequest: (request, context) => {
          (context as { sentMs?: number }).sentMs = performance.now();
          return { ...request, body: nextBody() };
        },
        onResponse: (status, body, context) => {
          if (status !== 200) return;
          // Apollo answers GraphQL errors with 200.
          if (body.includes('"errors"')) {
            graphqlErrors++;
            return;
          }
          lastMs = performance.now();
          latencyMs += lastMs - ((context as { sentMs?: number }).sentMs ?? lastMs);
          if (completed++ === 0) firstMs = lastMs;
        },
      },
    ],
  });
  return {
    concurrency,
    completed,
    firstMs,
    lastMs,
    meanLatencyMs: completed === 0 ? 0 : latencyMs / completed,
    seconds: result.duration,
    failed: graphqlErrors + result.errors + result.timeouts + result.non2xx,
  };
}
