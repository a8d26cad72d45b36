/** Whether a resolver's answer is to be awaited: anything with a `then` method, as graphql-js tells. */
export function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}
