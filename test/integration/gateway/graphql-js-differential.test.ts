import { ApolloServer, HeaderMap } from '@apollo/server';
import { getOperationAST, parse, validate, visit, type DocumentNode, type GraphQLNamedType } from 'graphql';
import { ObjectId, type Db, type MongoClient } from 'mongodb';
import { connectMongo, createDocjoin, loadProject, type Docjoin, type Gateway, type GatewayContext, type StorageMap, type Viewer } from 'docjoin';
import { declaredStrategies } from '../../../src/gateway';
import { request as httpRequest } from 'node:http';
import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { seedDemoData } from '../../../seed/seed-database';
import { estimateRequest } from '../../../src/gateway/operation/estimate/estimate-request';
import { demoProjectOptions } from '../../support/demo-project';
import { randomOperation, Random, type RandomOperation, type ValuePools } from '../../support/random-operations';
import { startTestMongo, type TestMongo } from '../../support/test-mongo';
import { createCheckedGateway } from '../../support/checked-gateway';
import { tolerateDroppedFieldErrors } from '../../support/tolerate-dropped-field-errors';
import { withReferenceAggregates } from '../../support/reference-aggregates';

/**
 * docjoin answers every operation exactly as plain Apollo Server on graphql-js does over the same data:
 * the same HTTP status, `data`, and errors (message, path, locations, code), whichever strategy each
 * relation reads with. Thousands of seeded random operations over the demo's and the shop's schemas
 * (random-operations.ts), then a fixed list of edge cases, over HTTP as clients send them.
 *
 * The reference runs the schema's resolvers on graphql-js with Apollo's own execution and no docjoin
 * plugin, every relation with its default strategy, and its `@aggregate` fields computed the plain way
 * (reference-aggregates.ts: the children read, then counted, added up and grouped in JavaScript); docjoin runs as `docjoin serve` does (its plan,
 * its plugins) with the limits off, once with the default strategies and once with a random strategy
 * per relation (x-docjoin-strategy). Replay a failure with DIFFERENTIAL_SEED=<seed printed>.
 *
 * The one difference allowed: which error explains a null. Both report only the first error to arrive
 * under a position a null has taken (graphql-js 16.15's CollectedErrors), but which one arrives first
 * depends on timing (a join answers later than an embedded read, graphql-js stops an object's other
 * fields after a synchronous failure). So an error only one side reports must lie under a null that
 * `data` shows on both sides, and the other side must report an error under that same null.
 */
/** DIFFERENTIAL_COUNT runs fewer (DIFFERENTIAL_SEED=<seed> DIFFERENTIAL_COUNT=1 replays one operation). */
const REPLAY_COUNT = process.env.DIFFERENTIAL_COUNT ? Number(process.env.DIFFERENTIAL_COUNT) : undefined;
const DEMO_OPERATIONS = REPLAY_COUNT ?? 1_400;
const SHOP_OPERATIONS = REPLAY_COUNT ?? 700;
const SEED = process.env.DIFFERENTIAL_SEED ? Number(process.env.DIFFERENTIAL_SEED) : Math.floor(Math.random() * 2 ** 31);
const SHOP_CONFIG = resolve(__dirname, '../../../examples/shop/docjoin.config.ts');
const NO_LIMITS = { maxRoundTrips: Infinity, maxDocuments: Infinity, maxDepth: Infinity, maxResponseNodes: Infinity };

interface Request {
  readonly method: 'GET' | 'POST';
  readonly body?: unknown;
  readonly search?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/** What the comparison reads of a response. */
interface Answer {
  readonly status: number;
  /** As sent, so that key order counts. */
  readonly dataText: string | undefined;
  readonly data: unknown;
  readonly errors: ReadonlyArray<{ message: string; path: unknown; locations: unknown; code: unknown }> | undefined;
}

interface Subject {
  readonly gateway: Gateway;
  readonly reference: ApolloServer<GatewayContext>;
  readonly referenceDocjoin: Docjoin;
  readonly referenceClient: MongoClient;
  readonly pools: ValuePools;
  /** Documents per collection, which bound the estimate of one read. */
  collectionSize(collection: string): number | undefined;
}

/**
 * `viewer`: who both sides serve (the shop's access rules let its admin do everything, so the rules
 * change no command, and the comparison stays one of execution semantics).
 */
async function startSubject(mongo: TestMongo, db: Db, project: Pick<Parameters<typeof createDocjoin>[0], 'typeDefs' | 'resolvers' | 'writePlans'>, viewer?: Viewer): Promise<Subject> {
  const client = await connectMongo(mongo.uri);
  const referenceClient = await connectMongo(mongo.uri);
  const mongoKind = mongo.isEmbedded ? ('embedded' as const) : ('external' as const);
  const auth = viewer && { authenticate: () => viewer };
  const gateway = await createCheckedGateway({ ...project, ...(auth && { auth }), mongoClient: client, db: db.databaseName, mongoKind, port: 0, limits: NO_LIMITS, strategyOverrides: true, onWarning: () => undefined });
  const referenceDocjoin = await createDocjoin({ ...project, ...(auth && { auth }), mongoClient: referenceClient, db: db.databaseName, mongoKind, limits: NO_LIMITS, onWarning: () => undefined });
  // Its @aggregate fields the plain way: the children read and figured in JavaScript (reference-aggregates.ts).
  const schema = withReferenceAggregates(referenceDocjoin.schema, referenceDocjoin.storageMap, referenceClient.db(db.databaseName));
  const reference = new ApolloServer<GatewayContext>({ schema, formatError: referenceDocjoin.formatError, includeStacktraceInErrorResponses: false });
  await reference.start();
  const stopGateway = gateway.stop.bind(gateway);
  const pools = await valuePools(db, gateway.storageMap);
  const sizes = new Map<string, number>();
  for (const type of gateway.storageMap.types.values()) if (type.collection) sizes.set(type.collection, await db.collection(type.collection).countDocuments());
  return {
    gateway: { ...gateway, stop: async () => { await stopGateway(); await client.close(); } },
    reference,
    referenceDocjoin,
    referenceClient,
    pools,
    collectionSize: (collection) => sizes.get(collection),
  };
}

async function stopSubject(subject: Subject | undefined): Promise<void> {
  if (!subject) return;
  await subject.gateway.stop();
  await subject.reference.stop();
  subject.referenceDocjoin.close();
  await subject.referenceClient.close();
}

/** Argument values from the database: ids per collection, strings and dates by field name. */
async function valuePools(db: Db, storageMap: StorageMap): Promise<ValuePools> {
  const idsByType = new Map<string, string[]>();
  const allIds: string[] = [];
  const byName = new Map<string, unknown[]>();
  const dates: string[] = [];
  for (const type of storageMap.types.values()) {
    if (!type.collection) continue;
    const documents = await db.collection(type.collection).find({}, { limit: 12 }).toArray();
    const ids = documents.map((document) => (document._id instanceof ObjectId ? document._id.toHexString() : String(document._id)));
    idsByType.set(type.typeName, ids);
    allIds.push(...ids);
    for (const document of documents) {
      for (const [name, value] of Object.entries(document)) {
        if (typeof value === 'string' || typeof value === 'number') (byName.get(name) ?? byName.set(name, []).get(name)!).push(value);
        else if (value instanceof Date) dates.push(value.toISOString());
      }
    }
  }
  return {
    valuesFor(argument: string, type: GraphQLNamedType, fieldType: GraphQLNamedType) {
      if (type.name === 'ID') return [...(idsByType.get(fieldType.name) ?? []), ...allIds.slice(0, 6)];
      if (type.name === 'DateTime') return dates.slice(0, 8);
      const named = (byName.get(argument) ?? []).filter((value) => (type.name === 'String' ? typeof value === 'string' : type.name === 'Int' ? Number.isInteger(value) : type.name === 'Float' ? typeof value === 'number' : false));
      return named.slice(0, 12);
    },
  };
}

/**
 * Over HTTP as a client sends it, a connection per request: with fetch's pooled keep-alive sockets, one
 * request in a few thousand failed with ECONNRESET before the server saw it.
 */
async function viaDocjoin(gateway: Gateway, request: Request): Promise<Answer> {
  const body = request.body === undefined ? undefined : typeof request.body === 'string' ? request.body : JSON.stringify(request.body);
  const headers = { ...(request.method === 'POST' && { 'content-type': 'application/json' }), ...(body !== undefined && { 'content-length': String(Buffer.byteLength(body)) }), ...request.headers };
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const outgoing = httpRequest(`${gateway.url!}${request.search ?? ''}`, { method: request.method, headers, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
  return answerOf(status, text);
}

async function viaReference(subject: Subject, request: Request): Promise<Answer> {
  const headers = new HeaderMap(Object.entries({ ...(request.method === 'POST' && { 'content-type': 'application/json' }), ...request.headers }));
  const response = await subject.reference.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method: request.method, headers, search: request.search ?? '', body: typeof request.body === 'string' ? JSON.parse(request.body) : request.body },
    context: async () => subject.referenceDocjoin.createContext({ viewer: await subject.referenceDocjoin.authenticate(headers) }),
  });
  if (response.body.kind !== 'complete') throw new Error('expected a complete body');
  return answerOf(response.status ?? 200, response.body.string);
}

function answerOf(status: number, text: string): Answer {
  let body: { data?: unknown; errors?: Array<{ message: string; path?: unknown; locations?: unknown; extensions?: { code?: unknown } }> };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return { status, dataText: undefined, data: `not JSON: ${text.slice(0, 200)}`, errors: undefined };
  }
  return {
    status,
    dataText: JSON.stringify(body.data),
    data: body.data,
    errors: body.errors
      ?.map((error) => ({ message: error.message, path: error.path, locations: error.locations, code: error.extensions?.code }))
      .sort((a, b) => `${JSON.stringify(a.path)} ${a.message}`.localeCompare(`${JSON.stringify(b.path)} ${b.message}`)),
  };
}

const MAX_ESTIMATED_DOCUMENTS = 5_000;
/**
 * Response objects past which an operation is passed over before either server runs it: books and
 * authors nested six levels deep read a few hundred documents, but repeat them into billions of objects,
 * which the reference would build before its length could be checked.
 */
const MAX_ESTIMATED_RESPONSE_NODES = 1_000_000;
/**
 * An operation whose response is this long is passed over too. The estimate bounds the documents read,
 * not how often the response repeats them (the same authors under every book, six levels deep). Outside
 * production both servers indent their JSON, so a 3.6 MB `data` six levels deep is sent as 41 MB, and
 * docjoin refuses what passes its maxResponseBytes (RESPONSE_TOO_LARGE) where plain Apollo has no limit.
 */
const MAX_RESPONSE_LENGTH = 4_000_000;

/** The length of `data` as both servers send it outside production (JSON indented by two spaces). */
function prettyLength(data: unknown): number {
  return JSON.stringify(data, null, 2)?.length ?? 0;
}

/** Whether a valid operation's static estimate passes MAX_ESTIMATED_DOCUMENTS or MAX_ESTIMATED_RESPONSE_NODES (invalid ones are cheap to refuse). */
function tooLarge(subject: Subject, operation: RandomOperation): boolean {
  const { schema, storageMap } = subject.gateway;
  const document = parse(operation.query);
  if (validate(schema, document).length > 0) return false;
  const chosen = getOperationAST(document, operation.operationName);
  if (!chosen) return false;
  const estimate = estimateRequest({ schema, storageMap, document, operation: chosen, variables: operation.variables, strategyFor: (field) => field.defaultStrategy, collectionSize: subject.collectionSize });
  return estimate !== undefined && (estimate.documents > MAX_ESTIMATED_DOCUMENTS || estimate.responseNodes > MAX_ESTIMATED_RESPONSE_NODES);
}

/** A strategy for every relation that declares more than one, drawn at random. */
function randomStrategies(storageMap: StorageMap, random: Random): string {
  const choices: string[] = [];
  for (const relation of storageMap.relations.values()) {
    const declared = declaredStrategies(relation);
    if (declared.length > 1) choices.push(`${relation.coordinate}=${random.pick(declared)}`);
  }
  return choices.join(',');
}

interface Mismatch {
  readonly seed: number;
  readonly operation: RandomOperation;
  readonly strategies: string;
  readonly docjoin: Answer;
  readonly reference: Answer;
}

/**
 * Runs `count` random operations; returns the mismatches and how many were valid GraphQL. Nesting lists
 * six deep can ask for millions of objects: an operation whose static estimate (an upper bound) passes
 * MAX_ESTIMATED_DOCUMENTS is passed over for the next seed.
 */
async function runRandomOperations(subject: Subject, firstSeed: number, offset: number, count: number): Promise<{ mismatches: Mismatch[]; valid: number; aggregating: number; statuses: Map<number, number> }> {
  const mismatches: Mismatch[] = [];
  const statuses = new Map<number, number>();
  const { schema, storageMap } = subject.gateway;
  const aggregateFields = new Set([...storageMap.aggregates.values()].map((aggregate) => aggregate.fieldName));
  let valid = 0;
  let aggregating = 0;
  for (let index = 0, seed = firstSeed + offset; index < count; index++, seed++) {
    let operation: RandomOperation;
    let request: Request;
    let reference: Answer;
    for (; ; seed++) {
      operation = randomOperation(schema, subject.pools, seed);
      if (tooLarge(subject, operation)) continue;
      request = { method: 'POST', body: operation };
      reference = await viaReference(subject, request);
      if (prettyLength(reference.data) <= MAX_RESPONSE_LENGTH) break;
    }
    const document = parse(operation.query);
    if (validate(schema, document).length === 0) valid++;
    if (reference.status === 200 && selectsAny(document, aggregateFields)) aggregating++;
    statuses.set(reference.status, (statuses.get(reference.status) ?? 0) + 1);
    const strategies = randomStrategies(storageMap, new Random(seed));
    // The default strategies twice: the second request runs from the plan the first one cached.
    for (const header of ['', strategies, '']) {
      const docjoin = await viaDocjoin(subject.gateway, { ...request, ...(header && { headers: { 'x-docjoin-strategy': header } }) }).catch((error: unknown) => {
        throw new Error(`DIFFERENTIAL_SEED=${seed - offset} DIFFERENTIAL_COUNT=1, strategies "${header}": ${String(error)}`);
      });
      if (!sameAnswer(docjoin, reference)) mismatches.push({ seed: seed - offset, operation, strategies: header, docjoin, reference });
    }
  }
  return { mismatches, valid, aggregating, statuses };
}

/** Whether the document selects a field named like one of `names` (an `@aggregate` field). */
function selectsAny(document: DocumentNode, names: ReadonlySet<string>): boolean {
  let found = false;
  visit(document, { Field: (node) => void (found ||= names.has(node.name.value)) });
  return found;
}

/**
 * Equal, but for which errors explain a null (see the top of this file): an error only one answer has
 * must lie under a null that `data` shows, and the other answer must have an error under that null too.
 */
function sameAnswer(docjoin: Answer, reference: Answer): boolean {
  if (docjoin.status !== reference.status || docjoin.dataText !== reference.dataText) return false;
  // Matched one for one: an error reported twice on one side needs two on the other.
  const onlyIn = (some: Answer, other: Answer) => {
    const unmatched = [...(other.errors ?? [])];
    return (some.errors ?? []).filter((error) => {
      const at = unmatched.findIndex((candidate) => isEqual(candidate, error));
      if (at >= 0) unmatched.splice(at, 1);
      return at < 0;
    });
  };
  const explained = (error: ErrorEntry, other: Answer): boolean => {
    const nulled = nullPrefix(docjoin.data, error.path);
    return nulled !== undefined && (other.errors ?? []).some((candidate) => Array.isArray(candidate.path) && nulled.every((key, depth) => (candidate.path as unknown[])[depth] === key));
  };
  return onlyIn(docjoin, reference).every((error) => explained(error, reference)) && onlyIn(reference, docjoin).every((error) => explained(error, docjoin));
}

type ErrorEntry = NonNullable<Answer['errors']>[number];

/** The shortest proper prefix of `path` at which `data` holds null (`[]` when data is null); undefined when none does. */
function nullPrefix(data: unknown, path: unknown): ReadonlyArray<string | number> | undefined {
  if (!Array.isArray(path)) return undefined;
  let value = data;
  for (let depth = 0; depth < path.length; depth++) {
    if (value === null) return path.slice(0, depth) as Array<string | number>;
    if (typeof value !== 'object' || value === undefined) return undefined;
    value = (value as Record<string | number, unknown>)[path[depth] as string | number];
  }
  return undefined;
}

/** Deep equality without building a diff (jest's takes minutes when many errors differ). */
function isEqual(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(a, b);
}

function describeMismatches(mismatches: readonly Mismatch[]): string {
  return mismatches
    .slice(0, 3)
    .map((mismatch) => `DIFFERENTIAL_SEED=${mismatch.seed} DIFFERENTIAL_COUNT=1 replays it; strategies "${mismatch.strategies}":\n${JSON.stringify(mismatch.operation)}\ndocjoin:   ${JSON.stringify(mismatch.docjoin).slice(0, 1500)}\nreference: ${JSON.stringify(mismatch.reference).slice(0, 1500)}`)
    .join('\n\n');
}

let mongo: TestMongo;
let demo: Subject | undefined;
let shop: Subject | undefined;
let droppedFieldErrors: ReturnType<typeof tolerateDroppedFieldErrors> | undefined;

beforeAll(async () => {
  process.stdout.write(`graphql-js differential: seed ${SEED} (replay with DIFFERENTIAL_SEED=${SEED})\n`);
  // Both sides run some operations on graphql-js 16, which can leave a field error unhandled.
  droppedFieldErrors = tolerateDroppedFieldErrors();
  mongo = await startTestMongo();
  const demoDb = mongo.freshDb('differential');
  await seedDemoData(demoDb, { scale: 0.02 });
  demo = await startSubject(mongo, demoDb, demoProjectOptions());
  const shopDb = mongo.freshDb('differential_shop');
  const project = await loadProject({ cwd: process.cwd(), configPath: SHOP_CONFIG });
  await project.config.seed!(shopDb, { scale: 1, onProgress: () => undefined });
  shop = await startSubject(mongo, shopDb, { typeDefs: project.typeDefs, resolvers: project.resolvers, writePlans: project.writePlans }, { role: 'admin', roles: ['admin'], anonymous: false, subject: undefined, claims: { role: 'admin' } });
}, 120_000);

afterAll(async () => {
  droppedFieldErrors?.restore();
  await stopSubject(demo);
  await stopSubject(shop);
  await mongo?.stop();
});

describe.each([
  ['demo', () => demo!, DEMO_OPERATIONS, 0],
  ['shop', () => shop!, SHOP_OPERATIONS, 1_000_000],
])('random operations over the %s schema', (_name, subject, count, offset) => {
  it(`answers ${count} of them as plain graphql-js does, under random strategies too`, async () => {
    const { mismatches, valid, aggregating, statuses } = await runRandomOperations(subject(), SEED, offset, count);
    expect(describeMismatches(mismatches)).toBe('');
    // Most operations are valid and executed; some are refused (HTTP 400) as graphql-js refuses them.
    if (REPLAY_COUNT !== undefined) return;
    expect(valid).toBeGreaterThan(count * 0.7);
    expect(statuses.get(200)).toBeGreaterThan(count * 0.6);
    // The schemas' @aggregate fields are among the fields picked (random-operations.ts picks any).
    expect(aggregating).toBeGreaterThan(0);
  }, 600_000);
});

describe('a fixed list of edge cases', () => {
  const post = (body: unknown, headers?: Record<string, string>): Request => ({ method: 'POST', body, ...(headers && { headers }) });
  const get = (params: Record<string, string>): Request => ({ method: 'GET', search: `?${new URLSearchParams(params).toString()}`, headers: { 'apollo-require-preflight': 'true' } });
  const CASES: Array<[string, Request]> = [
    ['an unknown operationName', post({ query: '{ __typename }', operationName: 'A' })],
    ['two operations, none named', post({ query: 'query A { __typename } query B { __typename }' })],
    ['two operations, one named that is not there', post({ query: 'query A { __typename } query B { __typename }', operationName: 'C' })],
    ['duplicate operation names', post({ query: 'query A { __typename } query A { books(first: 1) { name } }', operationName: 'A' })],
    ['a missing required variable', post({ query: 'query ($n: Int!) { books(first: $n) { name } }' })],
    ['a mistyped variable', post({ query: 'query ($n: Int!) { books(first: $n) { name } }', variables: { n: 'two' } })],
    ['an undeclared variable', post({ query: '{ books(first: $n) { name } }', variables: { n: 1 } })],
    ['a null @skip variable', post({ query: 'query Q($b: Boolean = true) { books(first: 1) { id @skip(if: $b) name } }', variables: { b: null } })],
    ['a null @include variable below the root', post({ query: 'query Q($b: Boolean) { books(first: 2) { name publisher { name @include(if: $b) } } }', variables: { b: null } })],
    ['@skip(if: true) on every field', post({ query: '{ books(first: 2) @skip(if: true) { name } __typename @skip(if: true) }' })],
    ['@skip(if: true) on every field below the root', post({ query: '{ books(first: 2) { name @skip(if: true) publisher @skip(if: true) { name } } }' })],
    ['a fragment cycle', post({ query: '{ books(first: 1) { ...A } } fragment A on Book { publisher { books { ...B } } } fragment B on Book { ...A }' })],
    ['an unknown fragment', post({ query: '{ books(first: 1) { ...Nope } }' })],
    ['a fragment on a type that cannot apply', post({ query: '{ books(first: 1) { ... on Person { firstName } } }' })],
    ['introspection pieces', post({ query: '{ __schema { queryType { name } } __type(name: "Book") { name fields { name } } books(first: 1) { __typename } }' })],
    ['an unknown field', post({ query: '{ books(first: 1) { nope } }' })],
    ['a syntax error', post({ query: '{ books(first: 1) { name }' })],
    ['an empty query', post({ query: '' })],
    ['no query at all', post({ variables: {} })],
    ['a query that is not a string', post({ query: 42 })],
    ['variables that are not an object', post({ query: '{ __typename }', variables: [1] })],
    ['a leaf with a selection', post({ query: '{ books(first: 1) { name { x } } }' })],
    ['a negative first', post({ query: '{ books(first: -1) { name } }' })],
    ['an id that is not an ObjectId', post({ query: '{ book(id: "not-an-id") { name } }' })],
    ['__proto__ as a response key, on a leaf and at the root', post({ query: '{ books(first: 1) { id __proto__: name } __proto__: __typename }' })],
    ['__proto__ as a response key, on a relation', post({ query: '{ books(first: 1) { __proto__: publisher { name } id } }' })],
    ['__proto__ as a response key, in an aggregate and its groups', post({ query: '{ posts(first: 2) { commentsAggregate { __proto__: count g: groupBy(by: [AUTHOR], first: 2) { __proto__: count } } c: commentsAggregate { __proto__: groupBy(by: [AUTHOR], first: 1) { count } } } }' })],
    ['a null variable for the non-null list of a groupBy', post({ query: 'query ($by: [CommentGroupField!] = [AUTHOR]) { posts(first: 2) { commentsAggregate { count groupBy(by: $by) { count } } } }', variables: { by: null } })],
    ['a null variable inside the list of a groupBy', post({ query: 'query ($x: CommentGroupField = AUTHOR) { posts(first: 2) { commentsAggregate { count groupBy(by: [$x]) { count } } } }', variables: { x: null } })],
    ['a GET query', get({ query: '{ books(first: 2) { name publisher { name } } }' })],
    ['a GET query with variables', get({ query: 'query ($n: Int!) { books(first: $n) { name } }', variables: '{"n":2}' })],
    ['a GET with an unknown operationName', get({ query: '{ __typename }', operationName: 'A' })],
    ['a GET mutation', get({ query: 'mutation { renameAuthor(id: "000000000000000000000000", firstName: "A", lastName: "B") { id } }' })],
    ['a GET with variables that are not JSON', get({ query: 'query ($n: Int!) { books(first: $n) { name } }', variables: '{n:2' })],
  ];

  it.each(CASES)('answers %s as plain graphql-js does, never with a 500', async (_what, request) => {
    const docjoin = await viaDocjoin(demo!.gateway, request);
    expect(docjoin.status).toBeLessThan(500);
    expect(docjoin).toEqual(await viaReference(demo!, request));
  });

  it('runs mutations as graphql-js does: one field after the other, and a failing non-null field ends the operation', async () => {
    const found = await viaReference(demo!, post({ query: '{ authors(first: 1) { id } posts(first: 1) { id } }' }));
    const { authors, posts } = found.data as { authors: Array<{ id: string }>; posts: Array<{ id: string }> };
    const variables = { id: authors[0]!.id, postId: posts[0]!.id };
    // Each is sent to docjoin, then to the reference: the renames leave the data as they found it the second time.
    const mutations = [
      'mutation ($id: ID!) { a: renameAuthor(id: $id, firstName: "Ann", lastName: "Able") { firstName books { name publisher { name } } } b: renameAuthor(id: $id, firstName: "Bea", lastName: "Best") { __typename name } }',
      'mutation ($id: ID!) { a: renameAuthor(id: "000000000000000000000000", firstName: "No", lastName: "One") { name } b: renameAuthor(id: $id, firstName: "Cy", lastName: "Cole") { name } }',
      'mutation ($id: ID!) { a: renameAuthor(id: $id, firstName: "Dee", lastName: "Dunn") { name } b: renameAuthor(id: "not-an-id", firstName: "E", lastName: "F") { name } }',
      'mutation ($postId: ID!) { addComment(postId: $postId, author: "Tess", comment: "") { author } }',
      'mutation ($postId: ID!) { addComment(postId: $postId, author: "Tess", comment: "Same") { author comment post { title } } }',
    ];
    for (const query of mutations) {
      const request = post({ query, variables });
      const docjoin = await viaDocjoin(demo!.gateway, request);
      expect(docjoin.status).toBeLessThan(500);
      expect({ query, ...docjoin }).toEqual({ query, ...(await viaReference(demo!, request)) });
    }
  });

  it('refuses a document nested past 500 levels with 400 GRAPHQL_PARSE_FAILED, where graphql-js overflows its stack, often with a 500', async () => {
    let chain = '{ books(first: 1) { ...F0 } }';
    for (let i = 0; i < 5_000; i++) chain += ` fragment F${i} on Book { name ${i + 1 < 5_000 ? `...F${i + 1}` : ''} }`;
    const inline = `{ books(first: 1) { ${'... { '.repeat(5_000)}name${' }'.repeat(5_000)} } }`;
    const refused = (nesting: string): Answer => ({
      status: 400,
      dataText: undefined,
      data: undefined,
      errors: [{ message: expect.stringMatching(new RegExp(`^The document nests ${nesting} levels deep .*; docjoin accepts at most 500$`)) as unknown as string, path: undefined, locations: undefined, code: 'GRAPHQL_PARSE_FAILED' }],
    });
    for (const query of [chain, inline]) {
      // Where the stack runs out varies with what V8 has compiled: in the parser it is a 400, in validation a
      // 500, in execution an error with data null. graphql-js never answers it.
      const reference = await viaReference(demo!, post({ query }));
      expect([reference.status, reference.data ?? null, (reference.errors?.length ?? 0) > 0]).toEqual([[400, 500, 200].includes(reference.status) ? reference.status : 'status', null, true]);
      expect(await viaDocjoin(demo!.gateway, post({ query }))).toEqual(refused('5,002'));
    }
    // A GET's query is in its URL, which Node bounds at 16 KB.
    expect(await viaDocjoin(demo!.gateway, get({ query: `{ books(first: 1) { ${'... { '.repeat(1_000)}name${' }'.repeat(1_000)} } }` }))).toEqual(refused('1,002'));
    expect(await demo!.gateway.execute({ query: inline })).toEqual({
      data: undefined,
      errors: [{ message: expect.stringMatching(/^The document nests 5,002 levels deep /), extensions: { code: 'GRAPHQL_PARSE_FAILED', nesting: 5_002, maxNesting: 500 } }],
      cost: undefined,
    });
    // At the limit, and still serving.
    const atLimit = `{ books(first: 1) { ${'... { '.repeat(498)}name${' }'.repeat(498)} } }`;
    const docjoin = await viaDocjoin(demo!.gateway, post({ query: atLimit }));
    expect(docjoin.status).toBe(200);
    expect(docjoin).toEqual(await viaReference(demo!, post({ query: atLimit })));
  });

  it('refuses a subscription with 400 OPERATION_NOT_SUPPORTED, where graphql-js answers 200 and an internal error', async () => {
    const request = post({ query: 'subscription { books { name } }' });
    expect(await viaDocjoin(demo!.gateway, request)).toEqual({ status: 400, data: undefined, errors: [expect.objectContaining({ code: 'OPERATION_NOT_SUPPORTED' })] });
    expect(await viaReference(demo!, request)).toMatchObject({ status: 200, data: null, errors: [{ code: 'INTERNAL_SERVER_ERROR' }] });
  });
});
