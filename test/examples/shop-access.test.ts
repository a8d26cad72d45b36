import { resolve } from 'node:path';
import { ObjectId, type Db } from 'mongodb';
import { loadProject, type Gateway, type GatewaySettings } from 'docjoin';
import { ORDERS_PER_SHOPPER, SHOPPERS, SHOP_IDS, shopperId, shopperOrderId } from '../../examples/shop/seed/seed-shop';
import { DEVELOPMENT_SECRET } from '../../examples/shop/auth/shop-jwt-secret';
import { print, visit, Kind, type DocumentNode, type FieldNode } from 'graphql';
import { CatalogueDocument, MyAccountDocument, MyOrdersDocument } from '../../examples/shop/generated/client/graphql';
import { mongoForFile } from '../support/test-mongo';
import { createCheckedGateway } from '../support/checked-gateway';

/** What the refusal of a missing `after` item adds (page-request.ts). */
const ANCHOR_GONE = " (deleted since its page was read, or never in this list): a page starts after an item that still exists; start again from the first page, or page by a connection's cursor, which keeps its place without the item";

/**
 * The shop's access contract, tried by an attacker over HTTP: for each role (anonymous, customer,
 * admin) every path the data can take (root reads, joins, reverse joins, snapshot copies, counters,
 * aliases, fragments, cursors, filters and orders), every mutation, and every kind of bad token.
 */
const SHOP_CONFIG = resolve(__dirname, '../../examples/shop/docjoin.config.ts');
const secret = new TextEncoder().encode(DEVELOPMENT_SECRET);
const hex = (id: ObjectId) => id.toHexString();

const files = mongoForFile();
let db: Db;
let gateway: Gateway;

/** The shop as its config serves it, on the seeded database: its auth, and `settings` (its server's, in production). */
async function startShop(settings: GatewaySettings = {}): Promise<Gateway> {
  const project = await loadProject({ cwd: process.cwd(), configPath: SHOP_CONFIG });
  return createCheckedGateway({
    ...settings,
    typeDefs: project.typeDefs,
    resolvers: project.resolvers,
    writePlans: project.writePlans,
    auth: project.config.auth!,
    mongoClient: files.client,
    db: db.databaseName,
    port: 0,
    onWarning: () => undefined,
  });
}

beforeAll(async () => {
  delete process.env.DOCJOIN_JWT_SECRET;
  db = files.mongo.freshDb('shop_access');
  const project = await loadProject({ cwd: process.cwd(), configPath: SHOP_CONFIG });
  await project.config.seed!(db, { scale: 1, onProgress: () => undefined });
  gateway = await startShop();
}, 60_000);
afterAll(async () => {
  await gateway?.stop();
});

type Claims = Record<string, unknown>;

async function sign(claims: Claims, options: { key?: Uint8Array; expiresIn?: string | number; notBefore?: string | number } = {}): Promise<string> {
  const { SignJWT } = await import('jose');
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt();
  jwt = jwt.setExpirationTime(options.expiresIn ?? '1h');
  if (options.notBefore !== undefined) jwt = jwt.setNotBefore(options.notBefore);
  return jwt.sign(options.key ?? secret);
}

const customerToken = (id: ObjectId) => sign({ sub: hex(id), role: 'customer' });
const adminToken = () => sign({ sub: 'root', role: 'admin' });

interface Answer {
  status: number;
  body: { data?: Record<string, unknown> | null; errors?: Array<{ message: string; path?: unknown[]; extensions?: { code?: string } }>; extensions?: { cost?: { roundTrips: number; documents: number; estimatedDocuments?: number } } };
  headers: Headers;
}

async function post(query: string, token?: string, variables?: Record<string, unknown>): Promise<Answer> {
  const response = await fetch(gateway.url!, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token !== undefined && { authorization: `Bearer ${token}` }) },
    body: JSON.stringify({ query, ...(variables && { variables }) }),
  });
  return { status: response.status, body: (await response.json()) as Answer['body'], headers: response.headers };
}

function codes(answer: Pick<Answer, 'body'>): (string | undefined)[] {
  return (answer.body.errors ?? []).map((error) => error.extensions?.code);
}

async function documentCounts(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of ['customers', 'orders', 'products', 'categories', 'reviews']) counts[name] = await db.collection(name).countDocuments();
  return counts;
}

/** The ids of the seeded orders of extra customer `index`. */
const ordersOf = (index: number) => Array.from({ length: ORDERS_PER_SHOPPER }, (_, order) => hex(shopperOrderId(index, order)));

describe('bad tokens are 401 UNAUTHENTICATED in one error, never data', () => {
  const cases: Array<[string, () => Promise<string>]> = [
    ['forged (signed with another secret)', () => sign({ sub: hex(SHOP_IDS.ada), role: 'admin' }, { key: new TextEncoder().encode('x'.repeat(48)) })],
    ['expired', () => sign({ sub: hex(SHOP_IDS.ada), role: 'customer' }, { expiresIn: Math.floor(Date.now() / 1000) - 3600 })],
    ['not yet valid', () => sign({ sub: hex(SHOP_IDS.ada), role: 'customer' }, { notBefore: '2h' })],
    ['unsigned (alg: none)', async () => {
      const { UnsecuredJWT } = await import('jose');
      return new UnsecuredJWT({ sub: hex(SHOP_IDS.ada), role: 'admin' }).setIssuedAt().setExpirationTime('1h').encode();
    }],
    ['garbage', async () => 'not.a.token'],
    ['without a role', () => sign({ sub: hex(SHOP_IDS.ada) })],
    ['without an expiry', async () => {
      const { SignJWT } = await import('jose');
      return new SignJWT({ sub: hex(SHOP_IDS.ada), role: 'admin' }).setProtectedHeader({ alg: 'HS256' }).sign(secret);
    }],
  ];
  it.each(cases)('%s', async (_name, token) => {
    const answer = await post('{ products { name } }', await token());
    expect(answer.status).toBe(401);
    expect(codes(answer)).toEqual(['UNAUTHENTICATED']);
    expect(answer.body.data).toBeUndefined();
    expect(answer.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
  });

  it('a header that is not a bearer token', async () => {
    const response = await fetch(gateway.url!, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Basic YWRtaW46YWRtaW4=' }, body: JSON.stringify({ query: '{ products { name } }' }) });
    expect(response.status).toBe(401);
    expect(((await response.json()) as Answer['body']).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('anonymous reads the catalogue and nothing else', () => {
  it('reads products with their category and reviews, and categories', async () => {
    const answer = await post('{ products(first: 5) { name category { name } reviewCount recentReviews { rating } reviews { text } } categories { name } }');
    expect(answer.body.errors).toBeUndefined();
    expect((answer.body.data!.products as unknown[]).length).toBe(3);
  });

  it.each([
    ['customers', '{ customers { name } }'],
    ['orders', '{ orders { id } }'],
    ['customer(id)', `{ customer(id: "${hex(SHOP_IDS.ada)}") { name } }`],
    ['order(id)', `{ order(id: "${hex(SHOP_IDS.firstOrder)}") { id } }`],
    ['customerByEmail', '{ customerByEmail(email: "ada@example.com") { name } }'],
  ])('%s is FORBIDDEN before anything is read', async (_name, query) => {
    const answer = await post(query);
    expect(answer.status).toBe(403);
    expect(codes(answer)).toEqual(['FORBIDDEN']);
    expect(answer.body.data).toBeUndefined();
  });

  it.each([
    ['createCustomer', 'mutation { createCustomer(input: { name: "M", email: "m@example.com", tier: GOLD, addresses: [] }) { id } }'],
    ['updateCustomer', `mutation { updateCustomer(id: "${hex(SHOP_IDS.ada)}", input: { name: "M" }) { id } }`],
    ['createCategory', 'mutation { createCategory(input: { name: "Pots" }) { id } }'],
    ['createProduct', 'mutation { createProduct(input: { sku: "X-1", name: "X", price: 1 }) { id } }'],
    ['updateProduct', `mutation { updateProduct(id: "${hex(SHOP_IDS.mug)}", input: { price: 1 }) { id } }`],
    ['deleteProduct', `mutation { deleteProduct(id: "${hex(SHOP_IDS.mug)}") }`],
    ['createOrder', `mutation { createOrder(input: { customer: "${hex(SHOP_IDS.ada)}", status: PLACED, placedAt: "2026-11-02T00:00:00Z", total: 1, lines: [] }) { id } }`],
    ['createReview', `mutation { createReview(input: { product: "${hex(SHOP_IDS.mug)}", rating: 1, text: "x", createdAt: "2026-11-02T00:00:00Z" }) { id } }`],
    ['deleteReview', `mutation { deleteReview(id: "${hex(SHOP_IDS.review)}") }`],
    ['placeOrder', `mutation { placeOrder(customerId: "${hex(SHOP_IDS.ada)}", lines: [{ product: "${hex(SHOP_IDS.mug)}", quantity: 1 }]) { id } }`],
  ])('%s is FORBIDDEN and writes nothing', async (_name, mutation) => {
    const before = await documentCounts();
    const answer = await post(mutation);
    expect(codes(answer)).toEqual(['FORBIDDEN']);
    expect(await documentCounts()).toEqual(before);
  });
});

describe('a customer sees only themselves and their own orders, whatever the path', () => {
  const customers = [0, 7, SHOPPERS - 1];

  it.each(customers)('customer %i: customers is one item, orders and Customer.orders are their own', async (index) => {
    const token = await customerToken(shopperId(index));
    const answer = await post('{ customers(first: 100) { id orderCount orders(first: 100) { id } } orders(first: 100) { id customer { id } } }', token);
    expect(answer.body.errors).toBeUndefined();
    const data = answer.body.data as { customers: Array<{ id: string; orderCount: number; orders: Array<{ id: string }> }>; orders: Array<{ id: string; customer: { id: string } }> };
    expect(data.customers.map((customer) => customer.id)).toEqual([hex(shopperId(index))]);
    expect(data.customers[0]!.orderCount).toBe(ORDERS_PER_SHOPPER);
    expect(data.customers[0]!.orders.map((order) => order.id).sort()).toEqual(ordersOf(index).sort());
    expect(data.orders.map((order) => order.id).sort()).toEqual(ordersOf(index).sort());
    expect(new Set(data.orders.map((order) => order.customer.id))).toEqual(new Set([hex(shopperId(index))]));
  });

  it('orders(first: 100) counts only their own documents, in the round trips an admin spends', async () => {
    const query = '{ orders(first: 100) { id } }';
    const mine = await post(query, await customerToken(shopperId(3)));
    const all = await post(query, await adminToken());
    expect(mine.body.extensions?.cost).toMatchObject({ roundTrips: 1, documents: ORDERS_PER_SHOPPER });
    expect(all.body.extensions?.cost).toMatchObject({ roundTrips: 1, documents: SHOPPERS * ORDERS_PER_SHOPPER + 1 });
  });

  it('estimates tell a customer nothing of how many rows others have: measures are used only where the role reads every row', async () => {
    const query = '{ customers(first: 100) { orders(first: 100) { id } } }';
    const mine = await post(query, await customerToken(shopperId(3)));
    expect(mine.body.extensions?.cost).toMatchObject({ roundTrips: 2, documents: 1 + ORDERS_PER_SHOPPER, estimatedDocuments: 100 + 100 * 100 });
    const all = await post(query, await adminToken());
    expect((all.body.extensions?.cost as { estimatedDocuments: number }).estimatedDocuments).toBeLessThan(100 + 100 * 100);
  });

  it('another customer, their order and their email are null, as if absent; aliases and fragments change nothing', async () => {
    const token = await customerToken(shopperId(2));
    const other = shopperId(5);
    const answer = await post(
      `fragment C on Customer { id name email }
       { mine: customer(id: "${hex(shopperId(2))}") { ...C } theirs: customer(id: "${hex(other)}") { ...C }
         byEmail: customerByEmail(email: "ada@example.com") { ...C }
         order: order(id: "${hex(shopperOrderId(5, 0))}") { id ... on Order { total } }
         own: order(id: "${hex(shopperOrderId(2, 1))}") { id } }`,
      token,
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data).toEqual({
      mine: { id: hex(shopperId(2)), name: 'Claude Shannon', email: 'claude.shannon@example.com' },
      theirs: null,
      byEmail: null,
      order: null,
      own: { id: hex(shopperOrderId(2, 1)) },
    });
  });

  it('an after anchor from another customer\'s list is refused as unknown; filters and orders show only their rows', async () => {
    const token = await customerToken(shopperId(4));
    const anchored = await post(`{ orders(after: "${hex(shopperOrderId(6, 0))}") { id } }`, token);
    expect(codes(anchored)).toEqual(['BAD_USER_INPUT']);
    expect(anchored.body.errors![0]!.message).toBe(`after: no Order with id "${hex(shopperOrderId(6, 0))}"${ANCHOR_GONE}`);
    const nested = await post(`{ customers { orders(after: "${hex(shopperOrderId(6, 0))}") { id } } }`, token);
    expect(codes(nested)).toEqual(['BAD_USER_INPUT']);
    const filtered = await post('{ shipped: orders(status: SHIPPED) { id } placed: orders(status: PLACED) { id } gold: customers(tier: GOLD) { id } standard: customers(tier: STANDARD) { id } }', token);
    expect(filtered.body.data).toEqual({
      shipped: [{ id: hex(shopperOrderId(4, 0)) }],
      placed: [{ id: hex(shopperOrderId(4, 1)) }, { id: hex(shopperOrderId(4, 2)) }],
      gold: [],
      standard: [{ id: hex(shopperId(4)) }],
    });
  });

  it('placeOrder for another customer is FORBIDDEN, nothing written; for themselves it works; createOrder (any total) never', async () => {
    const index = 9;
    const token = await customerToken(shopperId(index));
    const before = await documentCounts();
    const placedForOther = await post(`mutation { placeOrder(customerId: "${hex(SHOP_IDS.ada)}", lines: [{ product: "${hex(SHOP_IDS.mug)}", quantity: 1 }]) { id } }`, token);
    expect(codes(placedForOther)).toEqual(['FORBIDDEN']);
    for (const customer of [SHOP_IDS.ada, shopperId(index)]) {
      const created = await post(`mutation { createOrder(input: { customer: "${hex(customer)}", status: SHIPPED, placedAt: "2026-11-02T00:00:00Z", total: 0.01, lines: [{ product: "${hex(SHOP_IDS.matcha)}", quantity: 100 }] }) { id } }`, token);
      expect([created.status, codes(created), created.body.errors?.[0]?.message]).toEqual([403, ['FORBIDDEN'], 'role "customer" may create Order only through placeOrder']);
    }
    expect(await documentCounts()).toEqual(before);
    const placed = await post(`mutation { placeOrder(lines: [{ product: "${hex(SHOP_IDS.mug)}", quantity: 2 }]) { total customer { id name } } }`, token);
    expect(placed.body.errors).toBeUndefined();
    expect(placed.body.data).toEqual({ placeOrder: { total: 30, customer: { id: hex(shopperId(index)), name: 'John Backus' } } });
    expect((await db.collection('customers').findOne({ _id: shopperId(index) }))?.orderCount).toBe(ORDERS_PER_SHOPPER + 1);
  });

  it('updates their own name but not their tier or email (unique: a refusal would say another customer uses it), and no one else', async () => {
    const token = await customerToken(shopperId(11));
    const own = await post(`mutation { updateCustomer(id: "${hex(shopperId(11))}", input: { name: "L. Lamport" }) { name } }`, token);
    expect(own.body.data).toEqual({ updateCustomer: { name: 'L. Lamport' } });
    for (const input of ['{ tier: GOLD }', '{ email: "leslie@example.com" }']) {
      const readOnly = await post(`mutation { updateCustomer(id: "${hex(shopperId(11))}", input: ${input}) { name } }`, token);
      expect(codes(readOnly)).toEqual(['FORBIDDEN']);
    }
    const other = await post(`mutation { updateCustomer(id: "${hex(shopperId(12))}", input: { name: "Mallory" }) { name } }`, token);
    expect(codes(other)).toEqual(['NOT_FOUND']);
    expect((await db.collection('customers').findOne({ _id: shopperId(12) }))?.name).toBe('Margaret Hamilton');
    expect((await db.collection('customers').findOne({ _id: shopperId(11) }))?.tier).toBe('STANDARD');
  });

  it.each([
    ['createProduct', 'mutation { createProduct(input: { sku: "X-2", name: "X", price: 1 }) { id } }'],
    ['updateProduct', `mutation { updateProduct(id: "${hex(SHOP_IDS.mug)}", input: { price: 1 }) { id } }`],
    ['deleteProduct', `mutation { deleteProduct(id: "${hex(SHOP_IDS.mug)}") }`],
    ['createCategory', 'mutation { createCategory(input: { name: "Pots" }) { id } }'],
    ['createCustomer', 'mutation { createCustomer(input: { name: "M", email: "m2@example.com", tier: GOLD, addresses: [] }) { id } }'],
  ])('%s is FORBIDDEN', async (_name, mutation) => {
    const before = await documentCounts();
    const answer = await post(mutation, await customerToken(shopperId(1)));
    expect(answer.status).toBe(403);
    expect(codes(answer)).toEqual(['FORBIDDEN']);
    expect(await documentCounts()).toEqual(before);
  });
});

describe('an admin may do everything', () => {
  it('reads every customer and order, and writes', async () => {
    const token = await adminToken();
    const answer = await post('{ customers(first: 100) { id } orders(first: 100) { id } }', token);
    expect((answer.body.data!.customers as unknown[]).length).toBe(SHOPPERS + 2);
    const created = await post('mutation { createCategory(input: { name: "Pots" }) { name } }', token);
    expect(created.body.data).toEqual({ createCategory: { name: 'Pots' } });
  });

  it('is told which unique field a create repeats, and nothing is written', async () => {
    const before = await documentCounts();
    const answer = await post('mutation { createCustomer(input: { name: "Ada again", email: "ada@example.com", tier: GOLD, addresses: [] }) { id } }', await adminToken());
    expect(answer.body.errors?.map((error) => [error.message, error.extensions?.code, (error.extensions as { argumentName?: string } | undefined)?.argumentName])).toEqual([
      ['another Customer already has this email (a unique index allows one)', 'BAD_USER_INPUT', 'input'],
    ]);
    expect(await documentCounts()).toEqual(before);
  });
});

/** `document` with `__typename` in every selection set below the operation's, as Apollo Client's addTypename and urql's cacheExchange send it. */
function withTypenames(document: DocumentNode): DocumentNode {
  const typename: FieldNode = { kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } };
  return visit(document, {
    Field: (node) => (node.selectionSet && !node.selectionSet.selections.some((selection) => selection.kind === Kind.FIELD && selection.name.value === '__typename') ? { ...node, selectionSet: { ...node.selectionSet, selections: [...node.selectionSet.selections, typename] } } : undefined),
  });
}

describe('in production the shop runs only its storefront\'s documents, within each client\'s budget', () => {
  let production: Gateway;
  beforeAll(async () => {
    const project = await loadProject({ cwd: process.cwd(), configPath: SHOP_CONFIG });
    production = await startShop({ ...project.config.server, production: true });
  });
  afterAll(async () => {
    await production?.stop();
  });

  const send = async (body: Record<string, unknown>, token?: string) => {
    const response = await fetch(production.url!, { method: 'POST', headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Answer['body'] & { extensions?: { cost?: Record<string, unknown> } } };
  };
  const hashOf = (document: { __meta__?: Record<string, unknown> }) => String(document.__meta__?.hash).replace(/^sha256:/, '');

  it('runs a storefront document sent by hash alone, or in full as the client prints it', async () => {
    const token = await customerToken(shopperId(5));
    const byHash = await send({ extensions: { persistedQuery: { version: 1, sha256Hash: hashOf(MyAccountDocument as never) } } }, token);
    expect(byHash.body.data).toEqual({ customers: [{ id: hex(shopperId(5)), name: 'Frances Allen', email: 'frances.allen@example.com', tier: 'STANDARD', orderCount: ORDERS_PER_SHOPPER }] });
    const inFull = await send({ query: print(MyOrdersDocument), variables: { first: 1 } }, token);
    expect(inFull.body.errors).toBeUndefined();
    expect((inFull.body.data as { orders: unknown[] }).orders).toHaveLength(1);
  });

  it('runs a storefront document as Apollo Client and urql\'s cache send it, __typename added to each selection, in full and then by its hash', async () => {
    const token = await customerToken(shopperId(5));
    const query = print(withTypenames(MyAccountDocument));
    expect(query).toContain('__typename');
    const { createHash } = await import('node:crypto');
    const persistedQuery = { version: 1, sha256Hash: createHash('sha256').update(query).digest('hex') };
    // The client's own hash is not the manifest's: the first try by hash alone is not found, then the text is sent with it.
    expect(codes(await send({ extensions: { persistedQuery } }, token))).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
    const inFull = await send({ query, extensions: { persistedQuery } }, token);
    expect(inFull.body).toEqual({ data: { customers: [{ __typename: 'Customer', id: hex(shopperId(5)), name: 'Frances Allen', email: 'frances.allen@example.com', tier: 'STANDARD', orderCount: ORDERS_PER_SHOPPER }] }, extensions: expect.anything() });
    // Kept: the hash alone now runs it.
    expect((await send({ extensions: { persistedQuery } }, token)).body.data).toEqual(inFull.body.data);
  });

  it('takes the hash as the manifest writes it (sha256:<hex>), and a documentId as the client preset sends it, over POST and GET', async () => {
    const token = await customerToken(shopperId(5));
    const prefixed = String((MyAccountDocument as unknown as { __meta__: { hash: string } }).__meta__.hash);
    expect(prefixed).toMatch(/^sha256:[0-9a-f]{64}$/);
    const account = { customers: [{ id: hex(shopperId(5)), name: 'Frances Allen', email: 'frances.allen@example.com', tier: 'STANDARD', orderCount: ORDERS_PER_SHOPPER }] };
    expect((await send({ extensions: { persistedQuery: { version: 1, sha256Hash: prefixed } } }, token)).body.data).toEqual(account);
    expect((await send({ documentId: prefixed }, token)).body.data).toEqual(account);
    const byGet = await fetch(`${production.url!}?documentId=${encodeURIComponent(prefixed)}`, { headers: { authorization: `Bearer ${token}`, 'apollo-require-preflight': 'true' } });
    expect(((await byGet.json()) as Answer['body']).data).toEqual(account);
    const unknown = await send({ documentId: `sha256:${'0'.repeat(64)}` }, token);
    expect(codes(unknown)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
  });

  it('refuses any other document, and a new one registered as an automatic persisted query', async () => {
    const other = await send({ query: '{ customers(first: 100) { email } }' }, await adminToken());
    expect([other.status, codes(other)]).toEqual([400, ['PERSISTED_QUERY_NOT_IN_LIST']]);
    const query = '{ products { name } }';
    const { createHash } = await import('node:crypto');
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const registered = await send({ query, extensions: { persistedQuery: { version: 1, sha256Hash } } });
    expect(codes(registered)).toEqual(['PERSISTED_QUERY_NOT_IN_LIST']);
    const replayed = await send({ extensions: { persistedQuery: { version: 1, sha256Hash } } });
    expect(codes(replayed)).toEqual(['PERSISTED_QUERY_NOT_FOUND']);
  });

  it('answers a persisted query of another version, or with a hash that is not its query\'s (as an extension or a documentId), and a documentId that is no hash, 400 BAD_REQUEST', async () => {
    const query = print(MyAccountDocument);
    const sha256Hash = hashOf(MyAccountDocument as never);
    const version2 = await send({ extensions: { persistedQuery: { version: 2, sha256Hash } } });
    expect([version2.status, version2.body.errors]).toEqual([400, [{ message: 'Unsupported persisted query version', extensions: { code: 'BAD_REQUEST' } }]]);
    const mismatched = await send({ query: `${query} `, extensions: { persistedQuery: { version: 1, sha256Hash } } });
    expect([mismatched.status, mismatched.body.errors]).toEqual([400, [{ message: 'provided sha does not match query', extensions: { code: 'BAD_REQUEST' } }]]);
    // The same in the client preset's form: a documentId beside a text whose hash it is not.
    const mismatchedId = await send({ query: `${query} `, documentId: `sha256:${sha256Hash}` });
    expect([mismatchedId.status, mismatchedId.body.errors]).toEqual([400, [{ message: 'provided sha does not match query', extensions: { code: 'BAD_REQUEST' } }]]);
    const malformedId = await send({ documentId: 'sha256:abc' });
    expect([malformedId.status, malformedId.body.errors]).toEqual([
      400,
      [{ message: 'documentId must be a document\'s hash as the client preset\'s persisted documents name it, sha256:<64 hex digits>; got "sha256:abc"', extensions: { code: 'BAD_REQUEST' } }],
    ]);
  });

  it('refuses an untrusted text before validating or parsing it: the answer names nothing of the schema, over POST and GET', async () => {
    const refusal = [400, [{ message: 'This server runs only its trusted documents (the manifest docjoin codegen writes); send one of them, by its hash or its text', extensions: { code: 'PERSISTED_QUERY_NOT_IN_LIST' } }]];
    for (const query of ['{ customers { emai } }', '{ customers { email } }', '{ customers { email }']) {
      const posted = await send({ query }, await adminToken());
      expect([posted.status, posted.body.errors]).toEqual(refusal);
      const got = await fetch(`${production.url!}?${new URLSearchParams({ query })}`, { headers: { 'apollo-require-preflight': 'true' } });
      expect([got.status, ((await got.json()) as Answer['body']).errors]).toEqual(refusal);
    }
  });

  it('reports each client\'s budget in extensions.cost', async () => {
    const answer = await send({ query: print(CatalogueDocument) });
    expect(answer.body.extensions?.cost).toMatchObject({ throttleStatus: { maximumAvailable: 2000, restoreRate: 100 } });
  });
});

describe('outside production the shop takes any document, and automatic persisted queries work', () => {
  it('registers a document by hash and runs it by hash alone', async () => {
    const query = '{ products(first: 2) { name } }';
    const { createHash } = await import('node:crypto');
    const sha256Hash = createHash('sha256').update(query).digest('hex');
    const send = async (body: Record<string, unknown>) => (await fetch(gateway.url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json() as Promise<Answer['body']>;
    expect((await send({ extensions: { persistedQuery: { version: 1, sha256Hash } } })).errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect((await send({ query, extensions: { persistedQuery: { version: 1, sha256Hash } } })).data).toEqual({ products: [{ name: 'Matcha' }, { name: 'Mug' }] });
    expect((await send({ extensions: { persistedQuery: { version: 1, sha256Hash } } })).data).toEqual({ products: [{ name: 'Matcha' }, { name: 'Mug' }] });
  });
});
