import { checkHealth } from '../../../../src/gateway/http/health';

const uri = 'mongodb://app:pw-secret-7@db.internal:27017/?tlsCertificateKeyFilePassword=kf-secret-7';
const refused = async () => {
  throw new Error(`connect ECONNREFUSED db.internal:27017 (${uri}, password pw-secret-7)`);
};

describe('checkHealth', () => {
  it('answers the status only without detail (the production default): no host, port or driver error', async () => {
    await expect(checkHealth({ ping: async () => undefined, kind: 'external', db: 'shop', uri, detail: false })).resolves.toEqual({ status: 200, body: { status: 'ok' } });
    await expect(checkHealth({ ping: refused, kind: 'external', db: 'shop', uri, detail: false })).resolves.toEqual({ status: 503, body: { status: 'degraded' } });
  });

  it('names the database with detail, every secret removed from the URI and from the driver error', async () => {
    const redactedUri = 'mongodb://***@db.internal:27017/?tlsCertificateKeyFilePassword=***';
    await expect(checkHealth({ ping: async () => undefined, kind: 'external', db: 'shop', uri, detail: true })).resolves.toEqual({
      status: 200,
      body: { status: 'ok', mongo: { kind: 'external', db: 'shop', uri: redactedUri } },
    });
    await expect(checkHealth({ ping: refused, kind: 'external', db: 'shop', uri, detail: true })).resolves.toEqual({
      status: 503,
      body: { status: 'degraded', mongo: { kind: 'external', db: 'shop', uri: redactedUri, error: `connect ECONNREFUSED db.internal:27017 (${redactedUri}, password ***)` } },
    });
  });
});
