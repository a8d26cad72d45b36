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

  it('leaves alone a request that sends its text too, or a documentId that is no hash', () => {
    const withText = { documentId: hex, query: '{ a }' };
    expect(withDocumentId('POST', withText, '').body).toBe(withText);
    const notHash = { documentId: 'my-query' };
    expect(withDocumentId('POST', notHash, '').body).toBe(notHash);
    expect(withDocumentId('GET', undefined, '?query=%7B%20a%20%7D').search).toBe('?query=%7B%20a%20%7D');
  });

  it('leaves extensions that are no object for Apollo to refuse (400), and keeps those that are', () => {
    for (const extensions of ['x', 1, []]) {
      const request = { documentId: hex, extensions };
      expect(withDocumentId('POST', request, '').body).toBe(request);
    }
    expect(withDocumentId('POST', { documentId: hex, extensions: { trace: true } }, '').body).toEqual({ extensions: { trace: true, ...asExtension } });
  });
});
