import { createRedactor, redactSecrets, redactUri } from '../../../src/observability/redact-secrets';

describe('redactUri', () => {
  it('hides the user and password', () => {
    expect(redactUri('mongodb://admin:hunter2@db.example.com:27017/x')).toBe('mongodb://***@db.example.com:27017/x');
    expect(redactUri('mongodb://db.example.com')).toBe('mongodb://db.example.com');
    expect(redactUri('mongodb+srv://u:pw@cluster0.example.net/?retryWrites=true')).toBe('mongodb+srv://***@cluster0.example.net/?retryWrites=true');
  });

  it('hides the tail of a password with an unescaped @', () => {
    expect(redactUri('mongodb://admin:p@ss@word@db.example.com:27017/x')).toBe('mongodb://***@db.example.com:27017/x');
  });

  it("hides secret options' values: a key file's password, a proxy password, AWS session credentials", () => {
    expect(redactUri('mongodb://db:27017/?tls=true&tlsCertificateKeyFilePassword=s3cret&proxyPassword=pp&authMechanismProperties=AWS_SESSION_TOKEN:tok&appName=x')).toBe(
      'mongodb://db:27017/?tls=true&tlsCertificateKeyFilePassword=***&proxyPassword=***&authMechanismProperties=***&appName=x',
    );
  });
});

describe('redactSecrets', () => {
  const uri = 'mongodb://app:p%40ss-word@db.internal:27017/shop?proxyHost=proxy&proxyPassword=proxy-secret&authMechanismProperties=AWS_SESSION_TOKEN:session-tok,SERVICE_NAME:x';

  it('redacts every URI inside a text', () => {
    expect(redactSecrets(`cannot reach MongoDB at ${uri}: connect ECONNREFUSED`)).toBe(
      'cannot reach MongoDB at mongodb://***@db.internal:27017/shop?proxyHost=proxy&proxyPassword=***&authMechanismProperties=***: connect ECONNREFUSED',
    );
    expect(redactSecrets('first mongodb://a:bbbb@h1/x, then "mongodb+srv://c:dddd@h2/y"')).toBe('first mongodb://***@h1/x, then "mongodb+srv://***@h2/y"');
  });

  it("replaces a known URI's secrets where a message quotes them alone, as written and decoded", () => {
    const message = 'Authentication failed for p%40ss-word (p@ss-word); proxy refused proxy-secret; token session-tok expired';
    expect(redactSecrets(message, [uri], {})).toBe('Authentication failed for *** (***); proxy refused ***; token *** expired');
  });

  it("replaces the environment's AWS credentials", () => {
    const env = { AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI', AWS_SESSION_TOKEN: 'FwoGZXIvYXdz' };
    expect(redactSecrets('signing with wJalrXUtnFEMI and FwoGZXIvYXdz failed', [], env)).toBe('signing with *** and *** failed');
  });

  it('leaves a text without secrets as it is, and does not blank very short passwords everywhere', () => {
    expect(redactSecrets('ok at mongodb://db:27017/x', ['mongodb://u:a@db:27017/x'], {})).toBe('ok at mongodb://db:27017/x');
  });
});

describe('redactSecrets on other schemes', () => {
  it('hides the credentials of a URI that is not MongoDB (a misconfigured MONGODB_URI, a proxy)', () => {
    expect(redactSecrets('MONGODB_URI must start with mongodb://, got "postgres://app:pg-secret@db:5432/x"', [], {})).toBe('MONGODB_URI must start with mongodb://, got "postgres://***@db:5432/x"');
    expect(redactSecrets('see https://example.com/users/@alice', [], {})).toBe('see https://example.com/users/@alice');
  });
});

describe('createRedactor', () => {
  it('works the secrets out once and redacts every text it is given as redactSecrets does', () => {
    const uri = 'mongodb://app:s3cret-pass@db:27017/x?authMechanismProperties=AWS_SESSION_TOKEN:sess-token';
    const env: Record<string, string> = { AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI' };
    const redact = createRedactor([uri], env);
    env.AWS_SECRET_ACCESS_KEY = 'changed-later';
    for (const text of ['{"msg":"operation","durationMs":1.2}', `connecting to ${uri}.`, 'auth failed: s3cret-pass, sess-token, wJalrXUtnFEMI', 'proxy https://u:pw@proxy:3128 down']) {
      expect(redact(text)).toBe(redactSecrets(text, [uri], { AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI' }));
    }
    expect(redact('auth failed: s3cret-pass, sess-token, wJalrXUtnFEMI')).toBe('auth failed: ***, ***, ***');
  });
});
