import { redactUri } from '../../setting-rules';

export type MongoKind = 'embedded' | 'external';

export interface HealthReport {
  readonly status: 'ok' | 'degraded';
  /** `uri` and the ping's `error` only outside production: they name hosts. */
  readonly mongo: { readonly kind: MongoKind; readonly db: string; readonly uri?: string; readonly error?: string };
}

/**
 * `GET /health`: a ping to MongoDB decides between ok (200) and degraded (503). Credentials never
 * appear; in production neither does the host (the URI, and a failed ping's message, which names it).
 */
export async function checkHealth(options: { ping: () => Promise<void>; kind: MongoKind; db: string; uri: string; production: boolean; timeoutMs?: number }): Promise<{ status: number; body: HealthReport }> {
  const mongo = { kind: options.kind, db: options.db, ...(!options.production && { uri: redactUri(options.uri) }) };
  try {
    await withTimeout(options.ping(), options.timeoutMs ?? 2000);
    return { status: 200, body: { status: 'ok', mongo } };
  } catch (error) {
    const detail = options.production ? {} : { error: error instanceof Error ? error.message : 'ping failed' };
    return { status: 503, body: { status: 'degraded', mongo: { ...mongo, ...detail } } };
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
