/**
 * A trusted document named the way the GraphQL-over-HTTP persisted documents proposal (and
 * graphql-codegen's client preset) sends it, `{ "documentId": "sha256:<hex>", "variables": … }`, or
 * `?documentId=` on a GET, turned into the persisted-query extension Apollo reads (`sha256Hash`, hex
 * alone). A `query` sent beside it is kept, so Apollo checks that the hash is the text's, as in its own
 * form. A request whose extensions are no object is left as it is, for Apollo to refuse. `refusal`: the
 * documentId is no such hash, or the extensions name another document.
 */
export function withDocumentId(method: string, body: unknown, search: string): { body: unknown; search: string; refusal?: string } {
  if (method === 'GET') {
    if (!search.includes('documentId=')) return { body, search };
    const params = new URLSearchParams(search);
    if (!params.has('documentId')) return { body, search };
    const documentId = params.get('documentId');
    const hash = hexOf(documentId);
    if (hash === undefined) return { body, search, refusal: malformed(documentId) };
    const extensions = params.has('extensions') ? parsedObject(params.get('extensions')!) : {};
    // Extensions that are no JSON object are left for Apollo to refuse, as in any other request.
    if (extensions === undefined) return { body, search };
    const refusal = otherDocument(extensions, hash);
    if (refusal) return { body, search, refusal };
    params.delete('documentId');
    params.set('extensions', JSON.stringify({ ...extensions, ...persistedQuery(hash) }));
    return { body, search: `?${params.toString()}` };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('documentId' in body)) return { body, search };
  const { documentId, ...rest } = body as { documentId: unknown; extensions?: unknown };
  const hash = hexOf(documentId);
  if (hash === undefined) return { body, search, refusal: malformed(documentId) };
  // Extensions that are no object are left for Apollo to refuse, as in any other request.
  const extensions = rest.extensions ?? {};
  if (typeof extensions !== 'object' || extensions === null || Array.isArray(extensions)) return { body, search };
  const refusal = otherDocument(extensions, hash);
  if (refusal) return { body, search, refusal };
  return { body: { ...rest, extensions: { ...extensions, ...persistedQuery(hash) } }, search };
}

/** A request naming one document by its documentId and another by its persisted-query extension. */
function otherDocument(extensions: object, hash: string): string | undefined {
  if (!('persistedQuery' in extensions)) return undefined;
  const named = (extensions.persistedQuery as { sha256Hash?: unknown } | null)?.sha256Hash;
  return hexOf(named) === hash ? undefined : 'documentId and extensions.persistedQuery name different documents; send one of them';
}

function parsedObject(text: string): object | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function persistedQuery(hash: string): { persistedQuery: { version: 1; sha256Hash: string } } {
  return { persistedQuery: { version: 1, sha256Hash: hash } };
}

function malformed(documentId: unknown): string {
  const shown = typeof documentId === 'string' ? JSON.stringify(documentId.length > 80 ? `${documentId.slice(0, 80)}…` : documentId) : documentId === null ? 'null' : `a ${typeof documentId}`;
  return `documentId must be a document's hash as the client preset's persisted documents name it, sha256:<64 hex digits>; got ${shown}`;
}

/** The hex digits of `sha256:<hex>` (or of a bare hex hash); undefined for anything else. */
function hexOf(documentId: unknown): string | undefined {
  return typeof documentId === 'string' ? /^(?:sha256:)?([0-9a-f]{64})$/i.exec(documentId)?.[1]?.toLowerCase() : undefined;
}
