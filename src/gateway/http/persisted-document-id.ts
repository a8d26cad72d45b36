/**
 * A trusted document named the way the GraphQL-over-HTTP persisted documents proposal (and
 * graphql-codegen's client preset) sends it, `{ "documentId": "sha256:<hex>", "variables": … }`, or
 * `?documentId=` on a GET, turned into the persisted-query extension Apollo reads (`sha256Hash`, hex
 * alone). A request that also sends `query`, or extensions that are no object, or none of these, is left as it is.
 */
export function withDocumentId(method: string, body: unknown, search: string): { body: unknown; search: string } {
  if (method === 'GET') {
    if (!search.includes('documentId=')) return { body, search };
    const params = new URLSearchParams(search);
    const hash = hexOf(params.get('documentId'));
    if (hash === undefined || params.has('query') || params.has('extensions')) return { body, search };
    params.delete('documentId');
    params.set('extensions', JSON.stringify({ persistedQuery: { version: 1, sha256Hash: hash } }));
    return { body, search: `?${params.toString()}` };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('documentId' in body)) return { body, search };
  const { documentId, ...rest } = body as { documentId: unknown; query?: unknown; extensions?: unknown };
  const hash = hexOf(documentId);
  // Extensions that are no object are left for Apollo to refuse, as in any other request.
  const extensions = rest.extensions ?? {};
  if (hash === undefined || rest.query !== undefined || typeof extensions !== 'object' || extensions === null || Array.isArray(extensions)) return { body, search };
  return { body: { ...rest, extensions: { ...extensions, persistedQuery: { version: 1, sha256Hash: hash } } }, search };
}

/** The hex digits of `sha256:<hex>` (or of a bare hex hash); undefined for anything else. */
function hexOf(documentId: unknown): string | undefined {
  return typeof documentId === 'string' ? /^(?:sha256:)?([0-9a-f]{64})$/i.exec(documentId)?.[1]?.toLowerCase() : undefined;
}
