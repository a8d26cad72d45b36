import { GraphQLError } from 'graphql';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGateway, unauthenticated, type AuthOptions, type Gateway } from 'docjoin';
import { capturedLogger } from '../../support/captured-logger';
import { mongoForFile } from '../../support/test-mongo';

/**
 * Authentication over HTTP: JWTs verified with jose (HS256, RS256, ES256, a JWKS that rotates its keys),
 * issuer, audience and clock tolerance; your own authenticate function; every refusal a 401
 * UNAUTHENTICATED in one error, logged and counted without the token.
 */
const typeDefs = /* GraphQL */ `
  type Query { notes(first: Int = 20): [Note!]! @list }
  type Note @collection(name: "notes") @access(roles: ["reader"], allow: [READ], where: [{ field: "owner", claim: "sub" }]) {
    id: ID!
    owner: String!
    text: String!
  }
`;
const SECRET = 'a-test-secret-that-is-long-enough-for-hs256';
/** A new public key of `type`, as PEM. */
const pem = (type: 'ec' | 'rsa' | 'ed448', options: object) => {
  const generate = generateKeyPairSync as (type: string, options: object) => { publicKey: KeyObject };
  return String(generate(type, options).publicKey.export({ type: 'spki', format: 'pem' }));
};

const files = mongoForFile();
let dbName: string;
beforeAll(async () => {
  const db = files.mongo.freshDb('authentication');
  dbName = db.databaseName;
  await db.collection('notes').insertMany([
    { owner: 'ann', text: 'ann 1' },
    { owner: 'ann', text: 'ann 2' },
    { owner: 'bob', text: 'bob 1' },
  ]);
}, 60_000);

async function withGateway<T>(auth: AuthOptions, run: (gateway: Gateway, lines: Array<Record<string, unknown>>) => Promise<T>): Promise<T> {
  const { logger, lines } = capturedLogger();
  const gateway = await createGateway({ typeDefs, auth, mongoClient: files.client, db: dbName, port: 0, logger, onWarning: () => undefined });
  try {
    return await run(gateway, lines);
  } finally {
    await gateway.stop();
  }
}

async function notes(gateway: Gateway, headers: Record<string, string> = {}): Promise<{ status: number; body: { data?: { notes: Array<{ text: string }> } | null; errors?: Array<{ message: string; extensions?: { code?: string } }> } }> {
  const response = await fetch(gateway.url!, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ query: '{ notes { text } }' }) });
  return { status: response.status, body: (await response.json()) as never };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function hs256(claims: Record<string, unknown>, options: { expiresAt?: number; issuer?: string; audience?: string; secret?: string } = {}): Promise<string> {
  const { SignJWT } = await import('jose');
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime(options.expiresAt ?? '1h');
  if (options.issuer) jwt = jwt.setIssuer(options.issuer);
  if (options.audience) jwt = jwt.setAudience(options.audience);
  return jwt.sign(new TextEncoder().encode(options.secret ?? SECRET));
}

const now = () => Math.floor(Date.now() / 1000);

describe('HS256 with issuer, audience and clock tolerance', () => {
  const auth: AuthOptions = { jwt: { secret: SECRET, issuer: 'https://issuer.test', audience: 'docjoin', clockToleranceSeconds: 30 } };
  const good = { issuer: 'https://issuer.test', audience: 'docjoin' };

  it('a valid token reads its own rows; no token is the anonymous role, which no rule lets read notes', async () => {
    await withGateway(auth, async (gateway) => {
      const ann = await notes(gateway, bearer(await hs256({ sub: 'ann', role: 'reader' }, good)));
      expect(ann.body).toEqual({ data: { notes: [{ text: 'ann 1' }, { text: 'ann 2' }] }, extensions: expect.anything() });
      const anonymous = await notes(gateway);
      expect(anonymous.status).toBe(403);
      expect(anonymous.body.errors?.map((error) => error.extensions?.code)).toEqual(['FORBIDDEN']);
    });
  });

  it('refuses the wrong audience, the wrong issuer, another key, and a token expired past the tolerance; accepts one within it', async () => {
    await withGateway(auth, async (gateway, lines) => {
      const cases: Array<[string, string]> = [
        [await hs256({ sub: 'ann', role: 'reader' }, { ...good, audience: 'another-api' }), 'Unauthenticated: the token is for another audience'],
        [await hs256({ sub: 'ann', role: 'reader' }, { ...good, issuer: 'https://evil.test' }), 'Unauthenticated: the token is from another issuer'],
        [await hs256({ sub: 'ann', role: 'reader' }, { ...good, secret: 'another-secret-that-is-long-enough-too!!' }), 'Unauthenticated: the token\'s signature does not verify'],
        [await hs256({ sub: 'ann', role: 'reader' }, { ...good, expiresAt: now() - 120 }), 'Unauthenticated: the token has expired'],
      ];
      for (const [token, message] of cases) {
        const answer = await notes(gateway, bearer(token));
        expect([answer.status, answer.body.errors?.map((error) => [error.extensions?.code, error.message]), answer.body.data]).toEqual([401, [['UNAUTHENTICATED', message]], undefined]);
      }
      const withinTolerance = await notes(gateway, bearer(await hs256({ sub: 'bob', role: 'reader' }, { ...good, expiresAt: now() - 10 })));
      expect(withinTolerance.body.data).toEqual({ notes: [{ text: 'bob 1' }] });
      // Each refusal is one warn line with its reason, and never the token.
      const refused = lines.filter((line) => line.msg === 'request refused');
      expect(refused.map((line) => line.reason)).toEqual(['the token is for another audience', 'the token is from another issuer', 'the token\'s signature does not verify', 'the token has expired']);
      for (const [token] of cases) expect(JSON.stringify(lines)).not.toContain(token.split('.')[2]);
      const metrics = await (await fetch(new URL('/metrics', gateway.url!))).text();
      expect(metrics).toMatch(/docjoin_requests_total\{operation="anonymous",outcome="UNAUTHENTICATED"\} 4\n/);
    });
  });

  it('a role claim listing several roles needs x-docjoin-role to pick one it lists', async () => {
    await withGateway(auth, async (gateway) => {
      const token = await hs256({ sub: 'ann', role: ['reader', 'writer'] }, good);
      expect((await notes(gateway, bearer(token))).body.errors?.[0]?.message).toBe('Unauthenticated: the token gives several roles; pick one with the x-docjoin-role header');
      expect((await notes(gateway, { ...bearer(token), 'x-docjoin-role': 'admin' })).status).toBe(401);
      expect((await notes(gateway, { ...bearer(token), 'x-docjoin-role': 'reader' })).body.data).toEqual({ notes: [{ text: 'ann 1' }, { text: 'ann 2' }] });
    });
  });
});

describe('a public key: RSA, EC by its curve, Ed25519', () => {
  it.each(['RS256', 'ES256', 'ES384', 'ES512', 'EdDSA'])('%s: verifies with the PEM key, its algorithm the default; a token of another key pair is refused', async (alg) => {
    const { generateKeyPair, exportSPKI, SignJWT } = await import('jose');
    const pair = await generateKeyPair(alg, { extractable: true });
    const stranger = await generateKeyPair(alg);
    const sign = (key: CryptoKey) => new SignJWT({ sub: 'ann', role: 'reader' }).setProtectedHeader({ alg }).setExpirationTime('1h').sign(key);
    await withGateway({ jwt: { publicKey: await exportSPKI(pair.publicKey) } }, async (gateway) => {
      expect((await notes(gateway, bearer(await sign(pair.privateKey)))).body.data).toEqual({ notes: [{ text: 'ann 1' }, { text: 'ann 2' }] });
      expect((await notes(gateway, bearer(await sign(stranger.privateKey)))).status).toBe(401);
      // An HS256 token whose secret is the public key's text (the classic algorithm confusion) is refused.
      const confused = await new SignJWT({ sub: 'ann', role: 'reader' }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('1h').sign(new TextEncoder().encode(await exportSPKI(pair.publicKey)));
      expect((await notes(gateway, bearer(confused))).body.errors?.[0]?.message).toBe('Unauthenticated: the token is signed with an algorithm this server does not accept');
    });
  });

  it('refuses a token claiming another algorithm than the key verifies (ES256 for a P-384 key), with its signature forged, as 401', async () => {
    const { generateKeyPair, exportSPKI } = await import('jose');
    const pair = await generateKeyPair('ES384', { extractable: true });
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const forged = `${part({ alg: 'ES256' })}.${part({ sub: 'ann', role: 'reader', exp: 9_999_999_999 })}.${Buffer.alloc(64, 1).toString('base64url')}`;
    await withGateway({ jwt: { publicKey: await exportSPKI(pair.publicKey) } }, async (gateway) => {
      const answer = await notes(gateway, bearer(forged));
      expect([answer.status, answer.body.errors?.map((error) => [error.extensions?.code, error.message])]).toEqual([401, [['UNAUTHENTICATED', 'Unauthenticated: the token is signed with an algorithm this server does not accept']]]);
    });
  });
});

describe('a JWKS URL', () => {
  let server: Server;
  let keys: object[] = [];
  let fetches = 0;
  beforeAll(async () => {
    server = createServer((_request, response) => {
      fetches += 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('fetches the keys once, caches them, and fetches again when a token names a key it has not seen (rotation)', async () => {
    const { generateKeyPair, exportJWK, SignJWT } = await import('jose');
    const first = await generateKeyPair('RS256', { extractable: true });
    const second = await generateKeyPair('RS256', { extractable: true });
    keys = [{ ...(await exportJWK(first.publicKey)), kid: 'one', alg: 'RS256', use: 'sig' }];
    const sign = (key: CryptoKey, kid: string) => new SignJWT({ sub: 'bob', role: 'reader' }).setProtectedHeader({ alg: 'RS256', kid }).setExpirationTime('1h').sign(key);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
    await withGateway({ jwt: { jwksUrl: url } }, async (gateway) => {
      const token = await sign(first.privateKey, 'one');
      expect((await notes(gateway, bearer(token))).body.data).toEqual({ notes: [{ text: 'bob 1' }] });
      expect((await notes(gateway, bearer(token))).status).toBe(200);
      expect(fetches).toBe(1);
      keys = [{ ...(await exportJWK(second.publicKey)), kid: 'two', alg: 'RS256', use: 'sig' }];
      // jose fetches again for an unknown kid once its 30 s cooldown has passed: move its clock past it.
      const realNow = Date.now;
      const spy = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + 31_000);
      try {
        expect((await notes(gateway, bearer(await sign(second.privateKey, 'two')))).body.data).toEqual({ notes: [{ text: 'bob 1' }] });
      } finally {
        spy.mockRestore();
      }
      expect(fetches).toBe(2);
      expect((await notes(gateway, bearer(token))).status).toBe(401);
    });
  });

  it('an unreachable JWKS is 503 AUTHENTICATION_UNAVAILABLE, not a 401 or a 500', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { generateKeyPair, SignJWT } = await import('jose');
    const pair = await generateKeyPair('RS256');
    await withGateway({ jwt: { jwksUrl: `http://127.0.0.1:${port}/jwks.json` } }, async (gateway) => {
      const token = await new SignJWT({ sub: 'bob', role: 'reader' }).setProtectedHeader({ alg: 'RS256', kid: 'k' }).setExpirationTime('1h').sign(pair.privateKey);
      const answer = await notes(gateway, bearer(token));
      expect([answer.status, answer.body.errors?.[0]?.extensions?.code]).toEqual([503, 'AUTHENTICATION_UNAVAILABLE']);
    });
  });
});

describe('your own authenticate function', () => {
  it('gives the viewer, or refuses with unauthenticated()', async () => {
    const auth: AuthOptions = {
      authenticate: (request) => {
        const key = request.header('x-api-key');
        if (key === undefined) return undefined;
        if (key !== 'ann-key') throw unauthenticated('unknown API key');
        return { role: 'reader', roles: ['reader'], anonymous: false, subject: 'ann', claims: { sub: 'ann' } };
      },
    };
    await withGateway(auth, async (gateway) => {
      expect((await notes(gateway, { 'x-api-key': 'ann-key' })).body.data).toEqual({ notes: [{ text: 'ann 1' }, { text: 'ann 2' }] });
      const refused = await notes(gateway, { 'x-api-key': 'guess' });
      expect([refused.status, refused.body.errors?.[0]?.message]).toEqual([401, 'Unauthenticated: unknown API key']);
      expect((await notes(gateway)).status).toBe(403);
    });
  });

  it('a reason no header may carry (a line break, non-ASCII) is still a 401, with the reason whole in the error and printable ASCII in WWW-Authenticate', async () => {
    const reason = 'clé inconnue — "demandez"\nà un admin\\';
    const auth: AuthOptions = { authenticate: () => { throw unauthenticated(reason); } };
    await withGateway(auth, async (gateway) => {
      const response = await fetch(gateway.url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ notes { text } }' }) });
      const body = (await response.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
      expect([response.status, body.errors[0]!.extensions.code, body.errors[0]!.message]).toEqual([401, 'UNAUTHENTICATED', `Unauthenticated: ${reason}`]);
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token", error_description="cl inconnue  demandez  un admin"');
    });
  });

  it('answers 503 AUTHENTICATION_UNAVAILABLE, never a 500, when it throws another error or returns a malformed viewer: the client sees no word of the error, the log has it', async () => {
    const auth: AuthOptions = {
      authenticate: (request) => {
        const who = request.header('x-who');
        if (who === 'crash') throw new Error('session store at 10.0.0.7 refused: bob 1');
        if (who === 'no-code') throw new GraphQLError('session store down');
        if (who === 'no-roles') return { role: 'reader' } as never;
        if (who === 'other-role') return { role: 'admin', roles: ['reader'], anonymous: false, subject: 'ann', claims: {} };
        return { role: 'reader', roles: ['reader'], anonymous: false, subject: 'ann', claims: { sub: 'ann' } };
      },
    };
    await withGateway(auth, async (gateway, lines) => {
      const answers = [];
      for (const who of ['crash', 'no-code', 'no-roles', 'other-role']) {
        const { status, body } = await notes(gateway, { 'x-who': who });
        answers.push([status, body.errors?.map((error) => [error.extensions?.code, error.message]), body.data]);
      }
      expect(answers).toEqual([
        [503, [['AUTHENTICATION_UNAVAILABLE', 'Authentication is unavailable: auth.authenticate failed (the server log has its error)']], undefined],
        [503, [['AUTHENTICATION_UNAVAILABLE', 'Authentication is unavailable: auth.authenticate failed (the server log has its error)']], undefined],
        [503, [['AUTHENTICATION_UNAVAILABLE', 'Authentication is unavailable: auth.authenticate returned a viewer without roles (strings, its role among them)']], undefined],
        [503, [['AUTHENTICATION_UNAVAILABLE', 'Authentication is unavailable: auth.authenticate returned a viewer without roles (strings, its role among them)']], undefined],
      ]);
      const logged = lines.filter((line) => line.msg === 'request refused: its context could not be made').map((line) => (line.err as { message: string }).message);
      expect(logged[0]).toBe('session store at 10.0.0.7 refused: bob 1');
      expect(logged).toHaveLength(4);
      // And it keeps serving.
      expect((await notes(gateway, { 'x-who': 'ann' })).body.data).toEqual({ notes: [{ text: 'ann 1' }, { text: 'ann 2' }] });
    });
  });
});

describe('options are checked at startup', () => {
  it.each<[AuthOptions, string]>([
    [{ jwt: { secret: 'short' } }, 'option auth.jwt.secret must be a string of at least 32 characters (HS256 needs as many bytes of key), got 5 characters'],
    [{ jwt: {} }, 'option auth.jwt needs exactly one of secret, publicKey and jwksUrl, got none'],
    [{ jwt: { secret: undefined } }, 'option auth.jwt needs exactly one of secret, publicKey and jwksUrl, got secret given as undefined (an environment variable that is not set?)'],
    [{ jwt: { secret: SECRET, jwksUrl: 'https://issuer.test/jwks' } }, 'option auth.jwt needs exactly one of secret, publicKey and jwksUrl, got secret and jwksUrl'],
    [{ jwt: { secret: SECRET, algorithms: ['none'] } }, 'option auth.jwt.algorithms must list signing algorithms such as ["RS256"] ("none" is never accepted), got ["none"]'],
    [{ jwt: { jwksUrl: 'ftp://issuer.test/jwks' } }, 'option auth.jwt.jwksUrl must be an http(s) URL, got "ftp://issuer.test/jwks"'],
    // jose fails inside on such a key or algorithm at each request: refused before the first.
    [{ jwt: { publicKey: pem('ec', { namedCurve: 'secp384r1' }), algorithms: ['ES256', 'ES384'] } }, 'option auth.jwt.algorithms lists ES256, which the ec (secp384r1) public key cannot verify; it verifies ES384: list only those, or leave algorithms out for ES384'],
    [{ jwt: { publicKey: pem('rsa', { modulusLength: 2048 }), algorithms: ['ES256'] } }, 'option auth.jwt.algorithms lists ES256, which the rsa (2048 bits) public key cannot verify; it verifies RS256, RS384, RS512, PS256, PS384, PS512: list only those, or leave algorithms out for RS256'],
    [{ jwt: { publicKey: pem('ec', { namedCurve: 'secp256k1' }) } }, 'option auth.jwt.publicKey is an ec (secp256k1) key, which docjoin verifies no token with; use an RSA key of at least 2048 bits, an EC key (P-256, P-384 or P-521) or an Ed25519 key'],
    [{ jwt: { publicKey: pem('rsa', { modulusLength: 1024 }) } }, 'option auth.jwt.publicKey is an rsa (1024 bits) key, which docjoin verifies no token with; use an RSA key of at least 2048 bits, an EC key (P-256, P-384 or P-521) or an Ed25519 key'],
    [{ jwt: { publicKey: pem('ed448', {}) } }, 'option auth.jwt.publicKey is an ed448 key, which docjoin verifies no token with; use an RSA key of at least 2048 bits, an EC key (P-256, P-384 or P-521) or an Ed25519 key'],
    // A value that is no options object left every request anonymous; a name for a function failed every request.
    [5 as unknown as AuthOptions, 'option auth must be { jwt } or { authenticate }, got 5'],
    [[] as unknown as AuthOptions, 'option auth must be { jwt } or { authenticate }, got an array'],
    [{ authenticate: 'viewerFromCookie' } as unknown as AuthOptions, 'option auth.authenticate must be a function (request) => viewer, got string'],
    [(() => ({})) as unknown as AuthOptions, 'option auth must be { jwt } or { authenticate }, got a function (give it as auth.authenticate)'],
  ])('%j', async (auth, message) => {
    await expect(createGateway({ typeDefs, auth, mongoClient: files.client, db: dbName, listen: false, onWarning: () => undefined })).rejects.toThrow(message);
  });
});

describe('the rules against the indexes', () => {
  it('warns at startup when no index serves a role\'s row filter', async () => {
    const warnings: string[] = [];
    const gateway = await createGateway({ typeDefs, auth: { jwt: { secret: SECRET } }, mongoClient: files.client, db: dbName, listen: false, onWarning: (warning) => void warnings.push(warning) });
    await gateway.stop();
    expect(warnings).toContain('Note: role "reader" reads only where owner matches its claims, and no index of notes starts with it, so each of its reads scans the collection; create one with db.notes.createIndex({ "owner": 1 })');
  });
});
