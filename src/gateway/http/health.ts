import { redactSecrets } from '../../observability/redact-secrets';

export type MongoKind = 'embedded' | 'external';

export interface HealthReport {
  /** `draining`: the server is shutting down (it still answers, but takes no new work from a load balancer). */
  readonly status: 'ok' | 'degraded' | 'draining';
  /** Only with `detail` (healthDetail: by default not in production), since it names hosts. */
  readonly mongo?: { readonly kind: MongoKind; readonly db: string; readonly uri: string; readonly error?: string };
}

/**
 * `GET /health`: a ping to MongoDB decides between ok (200) and degraded (503). With `detail` it also
 * names the database: its kind, name and URI, and a failed ping's message, all through redactSecrets.
 */
export async function checkHealth(options: { ping: () => Promise<void>; kind: MongoKind; db: string; uri: string; detail: boolean; timeoutMs?: number }): Promise<{ status: number; body: HealthReport }> {
  const mongo = { kind: options.kind, db: options.db, uri: redactSecrets(options.uri) };
  try {
    await withTimeout(options.ping(), options.timeoutMs ?? 2000);
    return { status: 200, body: { status: 'ok', ...(options.detail && { mongo }) } };
  } catch (error) {
    const reason = redactSecrets(error instanceof Error ? error.message : 'ping failed', [options.uri]);
    return { status: 503, body: { status: 'degraded', ...(options.detail && { mongo: { ...mongo, error: reason } }) } };
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
