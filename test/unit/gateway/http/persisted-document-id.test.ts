import { withDocumentId } from '../../../../src/gateway/http/persisted-document-id';

const hex = 'ab'.repeat(32);
const asExtension = { persistedQuery: { version: 1, sha256Hash: hex } };

describe('withDocumentId: a trusted document named as the client preset names it', () => {
  it('turns documentId (prefixed or not, any case) into the persisted-query extension, keeping the variables', () => {
    for (const documentId of [`sha256:${hex}`, hex, `sha256:${hex.toUpperCase()}`]) {
      expect(withDocumentId('POST', { documentId, variables: { first: 1 } }, '')).toEqual({ body: { variables: { first: 1 }, extensions: asExtension }, search: '' });
    }
    const get = withDocumentId('GET', undefined, `?documentId=sha256%3A${hex}&variables=%7B%7D`);
    expect(new URLSearchParams(get.search).get('extensions')).toBe(JSON.stringify(asExtension));
    expect(new URLSearchParams(get.search).get('variables')).toBe('{}');
  });

  it("keeps a text sent beside it, so Apollo checks that the hash is the text's (400 BAD_REQUEST when not)", () => {
    expect(withDocumentId('POST', { documentId: hex, query: '{ a }' }, '').body).toEqual({ query: '{ a }', extensions: asExtension });
    const get = new URLSearchParams(withDocumentId('GET', undefined, `?documentId=${hex}&query=%7B%20a%20%7D`).search);
    expect([get.get('query'), get.get('extensions'), get.has('documentId')]).toEqual(['{ a }', JSON.stringify(asExtension), false]);
    expect(withDocumentId('GET', undefined, '?query=%7B%20a%20%7D').search).toBe('?query=%7B%20a%20%7D');
  });

  it('refuses a documentId that is no hash, naming it, over POST and GET', () => {
    const told = "documentId must be a document's hash as the client preset's persisted documents name it, sha256:<64 hex digits>; got";
    expect(withDocumentId('POST', { documentId: 'sha256:abc' }, '').refusal).toBe(`${told} "sha256:abc"`);
    expect(withDocumentId('POST', { documentId: 42, query: '{ a }' }, '').refusal).toBe(`${told} a number`);
    expect(withDocumentId('POST', { documentId: null }, '').refusal).toBe(`${told} null`);
    expect(withDocumentId('GET', undefined, '?documentId=my-query').refusal).toBe(`${told} "my-query"`);
    expect(withDocumentId('GET', undefined, '?documentId=').refusal).toBe(`${told} ""`);
  });

  it('refuses a request whose extensions name another document, and takes one naming the same', () => {
    const other = { persistedQuery: { version: 1, sha256Hash: 'cd'.repeat(32) } };
    const refusal = 'documentId and extensions.persistedQuery name different documents; send one of them';
    expect(withDocumentId('POST', { documentId: hex, extensions: other }, '').refusal).toBe(refusal);
    expect(withDocumentId('GET', undefined, `?documentId=${hex}&extensions=${encodeURIComponent(JSON.stringify(other))}`).refusal).toBe(refusal);
    expect(withDocumentId('POST', { documentId: hex, extensions: asExtension }, '').body).toEqual({ extensions: asExtension });
  });

  it('merges the extensions of a GET as those of a POST', () => {
    const get = withDocumentId('GET', undefined, `?documentId=${hex}&extensions=${encodeURIComponent(JSON.stringify({ trace: true }))}`);
    expect(JSON.parse(new URLSearchParams(get.search).get('extensions')!)).toEqual({ trace: true, ...asExtension });
    const notJson = withDocumentId('GET', undefined, `?documentId=${hex}&extensions=nope`);
    expect([notJson.search, notJson.refusal]).toEqual([`?documentId=${hex}&extensions=nope`, undefined]);
  });

  it('leaves extensions that are no object for Apollo to refuse (400), and keeps those that are', () => {
    for (const extensions of ['x', 1, []]) {
      const request = { documentId: hex, extensions };
      expect(withDocumentId('POST', request, '').body).toBe(request);
    }
    expect(withDocumentId('POST', { documentId: hex, extensions: { trace: true } }, '').body).toEqual({ extensions: { trace: true, ...asExtension } });
  });
});
