import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { request as httpRequest } from 'node:http';
import { demoProjectOptions } from '../support/demo-project';
import { gatewaySettingsOf, loadConfig } from '../../src/config/config';
import { connectMongo, type Gateway, type MongoClient } from 'docjoin';
import { startDemoGateway, type DemoGateway } from '../integration/gateway/support/demo-gateway';
import { createCheckedGateway } from '../support/checked-gateway';

/** Over HTTP: POST/GET /graphql with extensions.cost, the override header, the landing page and /health. */
let demo: DemoGateway;
let url: string;
/** The same data behind a NODE_ENV=production gateway (no Sandbox). */
let production: { gateway: Gateway; client: MongoClient };
beforeAll(async () => {
  demo = await startDemoGateway({ listen: true });
  url = demo.gateway.url!;
  const client = await connectMongo(demo.mongo.uri);
  const config = loadConfig({ PORT: '0', NODE_ENV: 'production' });
  production = { client, gateway: await createCheckedGateway({ db: client.db(demo.dbName), mongoClient: client, mongoKind: 'embedded', ...demoProjectOptions(), ...gatewaySettingsOf(config), validateDatabase: false }) };
}, 120_000);
afterAll(async () => {
  await production?.gateway.stop();
  await production?.client.close();
  await demo?.stop();
});

async function post(body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

describe('POST /graphql', () => {
  it('answers with data and the same extensions.cost as executeOperation', async () => {
    const query = '{ books(first: 50) { name publisher { name } authors { name thumbnailUrl } } }';
    const { status, json } = await post({ query });
    const inProcess = await demo.gateway.execute({ query });
    expect(status).toBe(200);
    expect(json.data).toEqual(inProcess.data);
    expect(json.extensions.cost.roundTrips).toBe(2);
    const { durationMs: _a, ...http } = json.extensions.cost;
    const { durationMs: _b, ...local } = inProcess.cost!;
    expect(http).toEqual(local);
  });

  it('switches a strategy for one request with x-docjoin-strategy', async () => {
    const query = '{ books(first: 50) { name authors { name } } }';
    const joined = await post({ query }, { 'x-docjoin-strategy': 'Book.authors=join' });
    const snapshot = await post({ query });
    expect(joined.json.extensions.cost.roundTrips).toBe(2);
    expect(joined.json.extensions.cost.fields['Book.authors'].strategy).toBe('join');
    expect(snapshot.json.extensions.cost.roundTrips).toBe(1);
    expect(joined.json.data).toEqual(snapshot.json.data);
  });

  it('rejects a bad override header with 400 BAD_USER_INPUT', async () => {
    const { status, json } = await post({ query: '{ books { name } }' }, { 'x-docjoin-strategy': 'Book.nope=join' });
    expect(status).toBe(400);
    expect(json.errors[0].extensions.code).toBe('BAD_USER_INPUT');
    expect(json.errors[0].message).toContain('unknown field "Book.nope"');
  });

  it('rejects an unknown x-docjoin-cost view with 400 BAD_USER_INPUT, and takes summary and commands', async () => {
    const { status, json } = await post({ query: '{ books(first: 1) { name } }' }, { 'x-docjoin-cost': 'command' });
    expect([status, json.errors[0].extensions.code, json.errors[0].message]).toEqual([400, 'BAD_USER_INPUT', 'x-docjoin-cost must be "summary" or "commands", got "command"']);
    const summary = await post({ query: '{ books(first: 1) { name } }' }, { 'x-docjoin-cost': 'summary' });
    expect([summary.status, summary.json.extensions.cost.commands]).toEqual([200, undefined]);
    const commands = await post({ query: '{ books(first: 1) { name } }' }, { 'x-docjoin-cost': 'Commands' });
    expect(commands.json.extensions.cost.commands).toHaveLength(1);
  });

  it('answers a subscription with 400 OPERATION_NOT_SUPPORTED, not an internal error', async () => {
    const { status, json } = await post({ query: 'subscription { books { name } }' });
    expect([status, json.errors[0].extensions.code, json.errors[0].message]).toEqual([400, 'OPERATION_NOT_SUPPORTED', 'docjoin serves queries and mutations; a subscription is not supported']);
  });

  it('serves GET queries', async () => {
    const response = await fetch(`${url}?query=${encodeURIComponent('{ posts(first: 2) { title } }')}`, { headers: { 'apollo-require-preflight': 'true' } });
    expect(response.status).toBe(200);
    const json = (await response.json()) as Record<string, any>;
    expect(json.data.posts).toHaveLength(2);
    expect(json.extensions.cost.roundTrips).toBe(1);
  });

  it('refuses a GET whose percent-escapes are no UTF-8 (%FF), which would run with U+FFFD in their place; a lone % stays as it is', async () => {
    const get = async (query: string) => {
      const response = await fetch(`${url}?query=${query}`, { headers: { 'apollo-require-preflight': 'true' } });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    expect(await get(encodeURIComponent('{ posts(first: 1, orderBy: "x') + '%FF' + encodeURIComponent('") { title } }'))).toEqual({
      status: 400,
      body: { errors: [{ message: 'the query string is not UTF-8 text once percent-decoded', extensions: { code: 'BAD_REQUEST' } }] },
    });
    const loneSign = await get(`${encodeURIComponent('{ posts(first: 2) { title } }')}%ZZ`);
    expect(loneSign).toMatchObject({ status: 400, body: { errors: [{ extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] } });
    // A POST's operation is in its body: a stray parameter in its URL is no one's business.
    const posted = await fetch(`${url}?utm=%FF`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ __typename }' }) });
    expect([posted.status, await posted.json()]).toEqual([200, expect.objectContaining({ data: { __typename: 'Query' } })]);
  });

  it('serves a request whose target is absolute (as sent to a proxy)', async () => {
    const target = `${url}?query=${encodeURIComponent('{ posts(first: 2) { title } }')}`;
    const { status, body } = await new Promise<{ status: number | undefined; body: string }>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port: new URL(url).port, path: target, headers: { 'apollo-require-preflight': 'true' } }, (response) => {
        let body = '';
        response.on('data', (chunk) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode, body }));
      });
      request.on('error', reject);
      request.end();
    });
    expect(status).toBe(200);
    expect((JSON.parse(body) as { data: { posts: unknown[] } }).data.posts).toHaveLength(2);
  });

  it('answers 400 to a request target that is neither a path nor a URL, and keeps serving', async () => {
    const { port } = new URL(url);
    for (const target of ['http://%zz/graphql', 'http://[::1', 'http://']) {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1');
        let received = '';
        socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
        socket.on('end', () => resolve(received));
        socket.on('error', reject);
        socket.end(`GET ${target} HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\n\r\n`);
      });
      expect([target, answer.split('\r\n')[0]]).toEqual([target, 'HTTP/1.1 400 Bad Request']);
    }
    expect((await post({ query: '{ __typename }' })).status).toBe(200);
  });
});

describe('errors during execution', () => {
  it('keep HTTP 200 with the error in the body (partial data is a GraphQL response)', async () => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ book(id: "x") { name } posts(first: 1) { title } }' }),
    });
    expect(response.status).toBe(200);
    const json = (await response.json()) as { data: { book: null; posts: unknown[] }; errors: Array<{ extensions: { code: string } }> };
    expect(json.errors.map((e) => e.extensions.code)).toEqual(['BAD_USER_INPUT']);
    expect(json.data.book).toBeNull();
    expect(json.data.posts).toHaveLength(1);
  });
});

describe('input rejected before execution', () => {
  it('an unknown enum value: inline is GRAPHQL_VALIDATION_FAILED, as a variable BAD_USER_INPUT, both HTTP 400', async () => {
    const inline = await post({ query: '{ tasks(status: PENDING) { id } }' });
    expect([inline.status, inline.json.errors.map((e: { extensions: { code: string } }) => e.extensions.code), inline.json.extensions.cost.roundTrips]).toEqual([400, ['GRAPHQL_VALIDATION_FAILED'], 0]);
    const variable = await post({ query: 'query ($s: TaskStatus) { tasks(status: $s) { id } }', variables: { s: 'PENDING' } });
    expect([variable.status, variable.json.errors.map((e: { extensions: { code: string } }) => e.extensions.code), variable.json.extensions.cost.roundTrips]).toEqual([400, ['BAD_USER_INPUT'], 0]);
  });

  it('an operator object for an ID! variable is BAD_USER_INPUT, HTTP 400', async () => {
    const { status, json } = await post({ query: 'query ($id: ID!) { book(id: $id) { name } }', variables: { id: { $ne: null } } });
    expect([status, json.errors[0].extensions.code, json.data]).toEqual([400, 'BAD_USER_INPUT', undefined]);
  });
});

describe('other routes', () => {
  it('serves the Apollo Sandbox landing page on GET with text/html, embedded and pointed at this endpoint', async () => {
    const response = await fetch(url, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await response.text();
    // Only the Sandbox page mounts the embedded Sandbox, pointed at the URL it was served from.
    expect(page).toContain('new window.EmbeddedSandbox(');
    expect(page).toContain('var initialEndpoint = window.location.href;');
    expect(page).toContain('"endpointIsEditable":false');
    // Offline, Sandbox cannot load: the page links to docjoin's IDE and moves there, by a script served
    // here (the page's Content-Security-Policy allows no inline one); test/browser checks it in Chromium.
    expect(page).toContain('<a href="/ide" id="docjoin-ide-link">');
    expect(page).toMatch(/<script src="\/ide\/assets\/sandbox-fallback\.js" nonce="[0-9a-f]+"><\/script>/);
    const script = await fetch(`${new URL(url).origin}/ide/assets/sandbox-fallback.js`);
    expect([script.status, script.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect(await script.text()).toContain('EmbeddedSandbox');
  });

  it('lets no other site frame the landing page, the IDE or its assets, nor a browser read them as another type', async () => {
    const origin = new URL(url).origin;
    const pageHeaders = (response: Response) => [response.headers.get('x-frame-options'), response.headers.get('content-security-policy')?.includes("frame-ancestors 'none'"), response.headers.get('x-content-type-options')];
    const landing = await fetch(url, { headers: { accept: 'text/html' } });
    const ide = await fetch(`${origin}/ide?query=${encodeURIComponent('mutation { addComment }')}`);
    const asset = await fetch(`${origin}/ide/assets/main.js`);
    for (const response of [landing, ide, asset]) expect([response.url, response.status, ...pageHeaders(response)]).toEqual([response.url, 200, 'DENY', true, 'nosniff']);
    await Promise.all([landing.text(), ide.text(), asset.arrayBuffer()]);
  });

  it("serves docjoin's IDE at /ide, its assets from this server, and nothing outside them", async () => {
    const origin = new URL(url).origin;
    const page = await (await fetch(`${origin}/ide`)).text();
    expect(page).toContain('<script type="module" src="/ide/assets/main.js"></script>');
    expect(page).toContain('window.docjoinIde = {"endpoint":"/graphql","assets":"/ide/assets","defaultQuery":');
    // The cost panel's header hint names a field of this schema.
    expect(page).toContain('"strategyExample":"Post.recentComments=join"};');
    // The page names no other host: everything it loads is served here.
    expect(page.match(/https?:\/\//g)).toBeNull();
    // It runs scripts from here and its own inline one alone (by its hash): test/browser checks the IDE works under it.
    const inline = /<script>([^<]*)<\/script>/.exec(page)![1]!;
    expect(page).toContain(`<meta http-equiv="content-security-policy" content="script-src 'self' 'sha256-${createHash('sha256').update(inline).digest('base64')}'; object-src 'none'; base-uri 'none'">`);
    const script = await fetch(`${origin}/ide/assets/main.js`);
    expect([script.status, script.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    expect((await script.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
    for (const path of ['/ide/assets/missing.js', '/ide/assets/../../package.json', '/ide/assets/%2e%2e/%2e%2e/package.json']) {
      const response = await fetch(`${origin}${path}`);
      expect([path, response.status]).toEqual([path, 404]);
    }
    // A target in absolute form (as sent to a proxy) names the same assets, and no more.
    const { port } = new URL(url);
    const statusOf = (target: string) =>
      new Promise<number | undefined>((resolve, reject) => httpRequest({ host: '127.0.0.1', port, path: target }, (response) => resolve(response.resume().statusCode)).on('error', reject).end());
    expect(await statusOf(`http://localhost:${port}/ide/assets/main.js`)).toBe(200);
    expect(await statusOf(`http://localhost:${port}/ide/assets/%2e%2e/%2e%2e/package.json`)).toBe(404);
  });

  it('serves no landing page in production: a browser GET is an ordinary GraphQL request without a query', async () => {
    const response = await fetch(production.gateway.url!, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(400);
    const page = await response.text();
    expect(page).not.toContain('EmbeddedSandbox');
    expect(JSON.parse(page)).toMatchObject({ errors: [{ extensions: { code: 'BAD_REQUEST' } }] });
  });

  it('GET /health reports which MongoDB is in use, without credentials', async () => {
    const response = await fetch(url.replace('/graphql', '/health'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ok',
      mongo: { kind: demo.mongo.isEmbedded ? 'embedded' : 'external', db: demo.dbName, uri: demo.mongo.uri.replace(/\/\/[^@/]*@/, '//***@') },
    });
  });

  it('GET /health in production answers the status only (no host, port or driver error)', async () => {
    const response = await fetch(production.gateway.url!.replace('/graphql', '/health'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers 404 elsewhere', async () => {
    const response = await fetch(url.replace('/graphql', '/nope?x=1'));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: 'no route /nope; GraphQL is served at /graphql' });
  });

  it('refuses a body over 1 MB with 413 BAD_REQUEST and keeps serving', async () => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `{ __typename }${' '.repeat(1_100_000)}` }) });
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ errors: [{ message: 'request body over 1000000 bytes', extensions: { code: 'BAD_REQUEST' } }] });
    expect((await post({ query: '{ __typename }' })).json).toEqual({ data: { __typename: 'Query' }, extensions: expect.anything() });
  });

  it('refuses a body that is not JSON with 400 BAD_REQUEST', async () => {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ errors: [{ message: 'request body is not valid JSON', extensions: { code: 'BAD_REQUEST' } }] });
  });

  it('reads the body by its Content-Type as HTTP defines it: any case, its UTF charset, a byte-order mark; other types and charsets refused', async () => {
    const body = JSON.stringify({ query: '{ books(first: 1) { name } }' });
    const sent = async (contentType: string, bytes: Buffer | string = body) => {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body: typeof bytes === 'string' ? bytes : new Uint8Array(bytes) });
      const json = (await response.json()) as { data?: unknown; errors?: { message: string; extensions: { code: string } }[] };
      return { status: response.status, data: json.data, errors: json.errors?.map((error) => [error.extensions.code, error.message]) };
    };
    const answered = await sent('application/json');
    expect(answered).toMatchObject({ status: 200, errors: undefined });
    for (const [contentType, bytes] of [
      ['Application/JSON', body],
      ['APPLICATION/JSON; charset=UTF-8', body],
      ['application/json; charset="utf-16le"', Buffer.from(body, 'utf16le')],
      ['application/json', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body)])],
    ] as const) {
      expect([contentType, await sent(contentType, bytes)]).toEqual([contentType, answered]);
    }
    expect(await sent('application/json; charset=latin1')).toEqual({ status: 415, data: undefined, errors: [['BAD_REQUEST', 'unsupported charset "latin1": send the body as UTF-8']] });
    // Bytes that are no text in the charset are refused, not replaced by U+FFFD and run.
    const badByte = Buffer.concat([Buffer.from('{"query":"{ books(first: 1) { name } }","variables":{"x":"ab'), Buffer.from([0xff]), Buffer.from('"}}')]);
    expect(await sent('application/json', badByte)).toEqual({ status: 400, data: undefined, errors: [['BAD_REQUEST', 'request body is not valid utf-8']] });
    expect(await sent('application/json; charset=utf-16le', Buffer.from([0x7b, 0x00, 0x00, 0xd8]))).toEqual({ status: 400, data: undefined, errors: [['BAD_REQUEST', 'request body is not valid utf-16le']] });
    for (const contentType of ['text/json', 'application/x-notjson-at-all']) {
      expect([contentType, await sent(contentType)]).toEqual([contentType, { status: 400, data: undefined, errors: [['BAD_REQUEST', 'POST body missing, invalid Content-Type, or JSON object has no keys.']] }]);
    }
  });

  it('GET /health is degraded (503) when MongoDB does not answer', async () => {
    await demo.client.close();
    const response = await fetch(url.replace('/graphql', '/health'));
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ status: 'degraded', mongo: { db: demo.dbName } });
  });
});
