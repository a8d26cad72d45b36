import type { LastResponse } from './last-response';

/** The last response, for the cost panel (a tiny external store for React). */

let latest: LastResponse | undefined;
const listeners = new Set<() => void>();

export function publishLastResponse(response: LastResponse): void {
  latest = response;
  for (const listener of listeners) listener();
}

export function subscribeToLastResponse(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function lastResponse(): LastResponse | undefined {
  return latest;
}
