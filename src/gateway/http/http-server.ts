import { GraphQLError } from 'graphql';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { Server as NetServer, type AddressInfo } from 'node:net';
import { HeaderMap, type ApolloServer, type BaseContext, type HTTPGraphQLResponse } from '@apollo/server';
import cors from 'cors';
import type { HealthReport } from './health';
import type { Admission, AdmissionSlot, BodyReservation } from './admission';
import type { LendableSlot } from '../operation/limits/lendable-slot';
import { PublicErrorCode } from '../errors/public-error-code';
import { withDocumentId } from './persisted-document-id';
import { unacceptableAccept } from './accepted-media-type';
import { OperationDeadline } from '../operation/limits/operation-deadline';
import { MAX_DOCUMENT_NESTING } from '../operation/limits/document-nesting';
import { OperationStopped } from '../errors/internal-errors';
import { listenFailure } from './listen-failure';
import { answerClientError } from './client-errors';
import { readJsonBody, RequestBodyError } from './read-json-body';
import { percentDecodesToText } from './query-string-text';
import { setPageHeaders } from './page-headers';
import { bearerTokenMatches } from './bearer-token';
import { UNREAD_RESPONSE_BYTES, UnreadResponses } from './unread-responses';
import type { ClientAddressOf } from './client-address';

/** Cross-origin requests: off, any origin, or the listed origins (an exact `Origin` header value each). */
export type CorsOption = boolean | { readonly origin: string | readonly string[]; readonly credentials?: boolean };

export interface HttpServerOptions<TContext extends BaseContext> {
  readonly apollo: ApolloServer<TContext>;
  /**
   * Builds the per-request context from the request headers, its deadline, the client's address,
   * where the request's tasks for after its answer go, and its slot among the requests running at once
   * (lent while it waits for the document budget). May throw a GraphQLError, e.g. a bad override header
   * or token.
   */
  readonly context: (headers: HeaderMap, deadline: OperationDeadline, clientAddress: string | undefined, afterAnswer: (task: (answeredWith?: string) => void) => void, slot: LendableSlot) => Promise<TContext>;
  /** How long a GraphQL request may take from its arrival, queueing included. */
  readonly operationTimeoutMs: number;
  /** The largest response body sent; a larger one is replaced by a RESPONSE_TOO_LARGE error. */
  readonly maxResponseBytes: number;
  readonly health: () => Promise<{ status: number; body: HealthReport }>;
  readonly port: number;
  readonly host?: string;
  /** CORS headers on `/graphql` (default off). */
  readonly cors?: CorsOption;
  /** `GET /metrics` (Prometheus text format); absent: no such route. */
  readonly metrics?: () => Promise<{ contentType: string; body: string }>;
  /** The bearer token `GET /metrics` requires; absent: none. */
  readonly metricsToken?: string;
  /**
   * Told of a GraphQL request answered before it reached Apollo (OVERLOADED, a bad or late body), with
   * its code, or given up by its client before then (OPERATION_CANCELLED, with when): no plugin sees it.
   */
  readonly onRefused?: (code: PublicErrorCode, reason?: string) => void;
  /** The refusal of a request's document text and variables before Apollo parses them (Docjoin.refuseSource); default: none. */
  readonly refuseSource?: (text: string, variables: unknown) => GraphQLError | undefined;
  /** Bounds the GraphQL requests running and waiting; beyond them a request gets 503 with Retry-After. */
  readonly admission?: Admission;
  /** More routes (the IDE), given the request's path: resolves true when it answered the request. */
  readonly routes?: (request: IncomingMessage, response: ServerResponse, path: string) => Promise<boolean>;
  /** Where a request came from (default: its socket's address). */
  readonly clientAddressOf?: ClientAddressOf;
  /** What answers their clients have not taken yet may hold together (default UNREAD_RESPONSE_BYTES, and at least maxResponseBytes). */
  readonly unreadResponseBytes?: number;
}

/** The options, with what the running server keeps for every request. */
type Serving<TContext extends BaseContext> = HttpServerOptions<TContext> & {
  readonly unread: UnreadResponses;
  /** Sockets the server ended itself (a request its HTTP parser refused, its shutdown): their requests were not abandoned by their clients. */
  readonly endedByServer: WeakSet<Duplex>;
};

export interface RunningHttpServer {
  readonly server: Server;
  readonly port: number;
  readonly url: string;
  /**
   * The lame-duck period before close: requests are still accepted and answered, each answer with
   * `connection: close`, while `/health` answers 503 `draining` so a load balancer stops sending here.
   */
  drain(): void;
  /**
   * Stops accepting connections and lets the requests in flight finish, for `graceMs` at most; then
   * closes every connection. Resolves with the number of requests that were cut off.
   */
  close(graceMs?: number): Promise<number>;
}


/** The longest a request's headers may take to arrive: Node's own default. */
const HEADERS_TIMEOUT_MS = 60_000;

/** Apollo Server on plain node:http: `/graphql` (POST, GET and the landing page), `GET /health`, `GET /metrics`, and `routes`. */
export async function startHttpServer<TContext extends BaseContext>(options: HttpServerOptions<TContext>): Promise<RunningHttpServer> {
  const withCors = corsMiddleware(options.cors ?? false);
  // A client that takes nothing of its answer for as long as an operation may run is gone.
  const serving: Serving<TContext> = { ...options, unread: new UnreadResponses(options.unreadResponseBytes ?? Math.max(UNREAD_RESPONSE_BYTES, options.maxResponseBytes), options.operationTimeoutMs), endedByServer: new WeakSet() };
  const inFlight = new Set<ServerResponse>();
  /** Operations answered 504 at their overrun whose work still runs (a write waiting on MongoDB): a stop waits for them too. */
  const overrunWork = new Set<Promise<void>>();
  let draining = false;
  // A request's headers get as long as its body and operation (operationTimeoutMs), and never more than
  // Node's default of 60 s; the timeouts are checked every second (every 30 s by default), or every 100 ms
  // under a shorter limit.
  const headersTimeout = Math.min(options.operationTimeoutMs, HEADERS_TIMEOUT_MS);
  const server = createServer({ headersTimeout, connectionsCheckingInterval: Math.max(100, Math.min(headersTimeout, 1000)) }, (request, response) => {
    inFlight.add(response);
    response.once('close', () => inFlight.delete(response));
    // While draining, tell keep-alive clients to reconnect elsewhere.
    if (draining) response.setHeader('connection', 'close');
    handle(serving, request, response, draining, overrunWork, withCors)
      .catch((error: unknown) => {
        if (!response.headersSent) sendJson(response, 500, { errors: [{ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
        else response.destroy(error instanceof Error ? error : undefined);
      });
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const answered = answerClientError(error, socket);
    if (!answered) return;
    serving.endedByServer.add(socket);
    options.onRefused?.(answered.code, `Node's HTTP parser refused it (${answered.status} ${STATUS_CODES[answered.status]})`);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenFailure(error, options.port, options.host)));
    server.listen(options.port, options.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    url: `http://localhost:${port}/graphql`,
    drain() {
      draining = true;
    },
    async close(graceMs = 0) {
      draining = true;
      // Stop accepting connections, but leave the open ones (http's own close would end the idle ones
      // at once): a request a client is sending on an idle keep-alive connection right now is answered,
      // with `connection: close`, instead of reset. Each connection is closed after its next answer.
      const closed = new Promise<void>((resolve, reject) => NetServer.prototype.close.call(server, (error) => (error ? reject(error) : resolve())));
      const deadline = Date.now() + graceMs;
      const waitWhileInFlight = async () => {
        while ((inFlight.size > 0 || overrunWork.size > 0) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, Math.min(50, deadline - Date.now())));
      };
      await waitWhileInFlight();
      // Idle connections end now; one whose request is still arriving ends after its answer.
      server.closeIdleConnections();
      await waitWhileInFlight();
      const cut = inFlight.size + overrunWork.size;
      for (const response of inFlight) if (response.socket) serving.endedByServer.add(response.socket);
      server.closeAllConnections();
      await closed;
      return cut;
    },
  };
}

const DRAINING_HEALTH: { status: number; body: HealthReport } = { status: 503, body: { status: 'draining' } };

async function handle<TContext extends BaseContext>(
  options: Serving<TContext>,
  request: IncomingMessage,
  response: ServerResponse,
  draining: boolean,
  overrunWork: Set<Promise<void>>,
  withCors: (request: IncomingMessage, response: ServerResponse) => Promise<boolean>,
): Promise<void> {
  const target = requestTarget(request.url);
  if (!target) {
    sendJson(response, 400, { error: `the request target ${JSON.stringify(request.url)} is not a path or a URL` });
    return;
  }
  const { path, search } = target;
  // CORS is for the API alone: a page of another origin must not read /metrics, /health or the IDE through a visitor's browser.
  if (path === '/graphql' || path === '/graphql/') return (await withCors(request, response)) ? undefined : handleAdmitted(options, request, response, search, overrunWork);
  if (path === '/health' && (request.method === 'GET' || request.method === 'HEAD')) {
    const { status, body } = draining ? DRAINING_HEALTH : await options.health();
    sendJson(response, status, body);
    return;
  }
  if (path === '/metrics' && options.metrics && (request.method === 'GET' || request.method === 'HEAD')) {
    if (options.metricsToken !== undefined && !bearerTokenMatches(request.headers.authorization, options.metricsToken)) {
      response.setHeader('www-authenticate', 'Bearer realm="docjoin metrics"');
      sendJson(response, 401, { error: 'GET /metrics needs the header Authorization: Bearer <the DOCJOIN_METRICS_TOKEN this server was started with>' });
      return;
    }
    const { contentType, body } = await options.metrics();
    response.setHeader('content-type', contentType);
    response.end(request.method === 'HEAD' ? undefined : body);
    return;
  }
  if (path === '/health' || (path === '/metrics' && options.metrics)) {
    response.setHeader('allow', 'GET, HEAD');
    sendJson(response, 405, { error: `${path} answers GET and HEAD, not ${request.method ?? 'this method'}` });
    return;
  }
  if (options.routes && (await options.routes(request, response, path))) return;
  sendJson(response, 404, { error: `no route ${path}; GraphQL is served at /graphql` });
}

/**
 * The path and the query string (with its `?`, or empty) of a request's target. Nearly every target is
 * a path (`/graphql?…`), split here; an absolute one (`http://host/graphql`, as sent to a proxy) is parsed.
 */
function requestTarget(url: string | undefined): { path: string; search: string } | undefined {
  const target = url ?? '/';
  if (!target.startsWith('/')) {
    if (!URL.canParse(target, 'http://localhost')) return undefined;
    const parsed = new URL(target, 'http://localhost');
    return { path: parsed.pathname, search: parsed.search };
  }
  const queryAt = target.indexOf('?');
  if (queryAt < 0) return { path: target, search: '' };
  const search = target.slice(queryAt);
  return { path: target.slice(0, queryAt), search: search === '?' ? '' : search };
}

/** A GraphQL request, once admission lets it run, within its deadline. */
async function handleAdmitted<TContext extends BaseContext>(
  options: Serving<TContext>,
  request: IncomingMessage,
  response: ServerResponse,
  search: string,
  overrunWork: Set<Promise<void>>,
): Promise<void> {
  const deadline = new OperationDeadline(options.operationTimeoutMs);
  response.once('close', () => {
    if (!response.writableFinished) deadline.stop('client-gone');
  });
  // A GET carries its operation in the query string; a POST's is in its body, and its query string is read by no one.
  if (request.method === 'GET' && !percentDecodesToText(search)) {
    sendJson(response, 400, { errors: [{ message: 'the query string is not UTF-8 text once percent-decoded', extensions: { code: PublicErrorCode.BAD_REQUEST } }] });
    options.onRefused?.(PublicErrorCode.BAD_REQUEST);
    return;
  }
  try {
    // The body first: a slot is for running an operation, and a client sending its body slowly must not hold one.
    const reading = options.admission ? options.admission.startReading() : UNLIMITED_READING;
    if (!reading) {
      // Its body is not read: the connection cannot carry another request after this answer.
      response.setHeader('connection', 'close');
      sendOverloaded(response, options.admission!);
      options.onRefused?.(PublicErrorCode.OVERLOADED);
      return;
    }
    const body = await readBodyWithin(request, response, deadline, options, reading).finally(reading.release);
    if (body === BODY_UNREAD) return;
    // Read within the overrun's slack, but past the deadline: the time is up before any work.
    if (deadline.stopped) {
      if (deadline.stopReason === 'timeout') {
        sendBodyTimeout(response, new OperationStopped('timeout', deadline.timeoutMs));
        options.onRefused?.(PublicErrorCode.OPERATION_TIMEOUT);
      } else clientLeft(options, request, CLIENT_LEFT.beforeStart);
      return;
    }
    const slot = options.admission ? await options.admission.enter(deadline) : UNLIMITED_SLOT;
    if (!slot) {
      if (deadline.stopReason === 'client-gone') {
        clientLeft(options, request, CLIENT_LEFT.queued);
        return;
      }
      sendOverloaded(response, options.admission!);
      options.onRefused?.(PublicErrorCode.OVERLOADED);
      return;
    }
    const answered = handleGraphql(options, request, response, search, deadline, body, slot).finally(slot.release);
    const overran = await untilAnsweredOrOverrun(answered, deadline);
    if (!overran) return;
    // The work goes on in the background, holding its admission slot, until it notices the deadline or
    // its writes end; nobody is left to hear how it ends.
    const background = answered.catch(() => undefined).finally(() => overrunWork.delete(background));
    overrunWork.add(background);
    if (response.headersSent) return;
    const message = `${overran.message}. A mutation's writes may still be running and be stored: read before retrying one`;
    // What it has cost until now: the work going on in the background is not in it.
    const extensions = deadline.extensionsSoFar?.();
    sendJson(response, 504, { errors: [{ message, extensions: { code: PublicErrorCode.OPERATION_TIMEOUT } }], data: null, ...(extensions && { extensions }) });
  } finally {
    deadline.finish();
  }
}

/**
 * Waits for `answered`; resolves with the overrun's reason if the deadline overran first (a write, or
 * a hand-written resolver, still waiting for a MongoDB that does not answer), else undefined.
 */
async function untilAnsweredOrOverrun(answered: Promise<void>, deadline: OperationDeadline): Promise<Error | undefined> {
  let stopListening!: () => void;
  const overran = new Promise<Error>((resolve) => {
    stopListening = deadline.onOverrun(resolve);
  });
  try {
    return await Promise.race([answered.then(() => undefined), overran]);
  } finally {
    stopListening();
  }
}

function sendBodyTimeout(response: ServerResponse, stopped: OperationStopped): void {
  sendJson(response, 504, { errors: [{ message: `${stopped.message}; its request body was still arriving`, extensions: { code: PublicErrorCode.OPERATION_TIMEOUT } }], data: null });
}

function sendOverloaded(response: ServerResponse, admission: Admission): void {
  response.setHeader('retry-after', '1');
  const { maxConcurrent, maxQueued, queueTimeoutMs } = admission;
  const wait = Number.isFinite(queueTimeoutMs) ? `, each at most ${queueTimeoutMs} ms` : '';
  sendJson(response, 503, {
    errors: [{ message: `docjoin is at capacity (${maxConcurrent} operations running, ${maxQueued} waiting${wait}); retry shortly`, extensions: { code: PublicErrorCode.OVERLOADED } }],
  });
}

/** A slot without admission control: lending it lets nobody in, and taking it back waits for nothing. */
const UNLIMITED_SLOT: AdmissionSlot = { release: () => undefined, lend: () => ({ takeBack: () => Promise.resolve() }) };

/** A body read without admission control: every chunk may be buffered. */
const UNLIMITED_READING: BodyReservation = { take: () => true, release: () => undefined };

/** When a client gave up on its request before its operation started, as its log line says. */
const CLIENT_LEFT = {
  uploading: 'the client closed the connection while sending its request body',
  beforeStart: 'the client closed the connection before its operation started',
  queued: 'the client closed the connection while its request waited for a slot',
} as const;

/** Tells of a request given up by its client, unless the server ended its connection itself. */
function clientLeft<TContext extends BaseContext>(serving: Serving<TContext>, request: IncomingMessage, reason: string): void {
  if (!serving.endedByServer.has(request.socket)) serving.onRefused?.(PublicErrorCode.OPERATION_CANCELLED, reason);
}

/** What readBodyWithin gives when it answered the request itself (a bad body, a timeout) or its client left. */
const BODY_UNREAD = Symbol('body unread');

/**
 * The request's body (readJsonBody), read within the operation's deadline: a bad body is answered
 * 400 or 413; a body still arriving at the overrun is answered 504 and its connection closed once the
 * answer is out (nothing else would end the read); a client gone meanwhile gets nothing.
 */
async function readBodyWithin<TContext extends BaseContext>(
  request: IncomingMessage,
  response: ServerResponse,
  deadline: OperationDeadline,
  serving: Serving<TContext>,
  reading: BodyReservation,
): Promise<unknown> {
  const { admission, onRefused } = serving;
  let stopListening = (): void => undefined;
  const overran = new Promise<OperationStopped>((resolve) => {
    stopListening = deadline.onOverrun(resolve);
  });
  try {
    const read = await Promise.race([readJsonBody(request, reading.take).then((body) => ({ body })), overran]);
    if (!(read instanceof OperationStopped)) return read.body;
    if (!response.headersSent && !response.destroyed) {
      response.setHeader('connection', 'close');
      response.once('finish', () => request.destroy());
      sendBodyTimeout(response, read);
      onRefused?.(PublicErrorCode.OPERATION_TIMEOUT);
    } else {
      request.destroy();
      clientLeft(serving, request, CLIENT_LEFT.uploading);
    }
    return BODY_UNREAD;
  } catch (error) {
    if (!(error instanceof RequestBodyError)) throw error;
    if (deadline.stopReason === 'client-gone' || response.destroyed) {
      clientLeft(serving, request, CLIENT_LEFT.uploading);
      return BODY_UNREAD;
    }
    // The rest of a body over the limit, or over what the bodies being read may buffer, is not read: the connection ends with this answer.
    if (error.status === 413 || error.status === 503) response.setHeader('connection', 'close');
    if (error.status === 503 && admission) {
      sendOverloaded(response, admission);
      onRefused?.(PublicErrorCode.OVERLOADED);
      return BODY_UNREAD;
    }
    sendJson(response, error.status, { errors: [{ message: error.message, extensions: { code: PublicErrorCode.BAD_REQUEST } }] });
    onRefused?.(PublicErrorCode.BAD_REQUEST);
    return BODY_UNREAD;
  } finally {
    stopListening();
  }
}

async function handleGraphql<TContext extends BaseContext>(
  options: Serving<TContext>,
  request: IncomingMessage,
  response: ServerResponse,
  sent: string,
  deadline: OperationDeadline,
  sentBody: unknown,
  slot: LendableSlot,
): Promise<void> {
  const method = request.method ?? 'GET';
  const { body, search, refusal } = withDocumentId(method, sentBody, sent);
  const headers = new HeaderMap();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const tasksAfterAnswer: Array<(answeredWith?: string) => void> = [];
  let answeredWith: string | undefined;
  // Refused as Apollo refuses a request whose context fails: logged, counted, and answered with the error's status.
  const unanswerable = unacceptableAccept(method, request.headers.accept);
  const refused =
    refusal !== undefined
      ? new GraphQLError(refusal, { extensions: { code: PublicErrorCode.BAD_REQUEST, http: { status: 400 } } })
      : unanswerable !== undefined
        ? new GraphQLError(unanswerable, { extensions: { code: PublicErrorCode.BAD_REQUEST, http: { status: 406 } } })
        : options.refuseSource?.(queryTextOf(method, body, search), variablesOf(method, body, search));
  try {
    const result = await options.apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method, headers, search, body },
      context: () => (refused ? Promise.reject(refused) : options.context(headers, deadline, options.clientAddressOf ? options.clientAddressOf(request) : request.socket.remoteAddress, (task) => tasksAfterAnswer.push(task), slot)),
    });
    // Answered already: the deadline overran while this ran, and its client got 504. Apollo answers a GET 406 (an
    // Accept header it cannot answer) in place of the query it ran; a POST is refused before (unacceptableAccept).
    answeredWith = response.headersSent ? PublicErrorCode.OPERATION_TIMEOUT : ((await answer(options, response, result, deadline)) ?? (result.status === 406 ? PublicErrorCode.BAD_REQUEST : undefined));
  } finally {
    runAfterAnswer(tasksAfterAnswer, answeredWith);
  }
}

/** The document a GraphQL request over HTTP sends: the body's `query` for a POST, the `query` parameter for a GET. */
function queryTextOf(method: string, body: unknown, search: string): string {
  if (method === 'GET') return new URLSearchParams(search).get('query') ?? '';
  const query = typeof body === 'object' && body !== null ? (body as { query?: unknown }).query : undefined;
  return typeof query === 'string' ? query : '';
}

/**
 * The variables a GraphQL request over HTTP sends, as Apollo reads them: the body's for a POST, the
 * `variables` parameter for a GET, parsed here only when it is long enough to nest too deeply (Apollo
 * answers a malformed one).
 */
function variablesOf(method: string, body: unknown, search: string): unknown {
  if (method !== 'GET') return typeof body === 'object' && body !== null ? (body as { variables?: unknown }).variables : undefined;
  const text = new URLSearchParams(search).get('variables');
  if (text === null || text.length <= 2 * MAX_DOCUMENT_NESTING) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Each task, whatever the others do: one that throws (a logger's destination failing) is reported, not left to cut off the answer's connection. */
function runAfterAnswer(tasks: ReadonlyArray<(answeredWith?: string) => void>, answeredWith: string | undefined): void {
  for (const task of tasks) {
    try {
      task(answeredWith);
    } catch (error) {
      process.emitWarning(error instanceof Error ? error : String(error), { code: 'DOCJOIN_AFTER_ANSWER' });
    }
  }
}

/**
 * Writes Apollo's answer, or RESPONSE_TOO_LARGE in its place: 400, or, after a mutation ran, 200 with
 * `data: null` and the answer's extensions (its cost, with what it wrote), since a 4xx would read as
 * nothing done. Resolves with RESPONSE_TOO_LARGE when it answered that instead.
 */
async function answer<TContext extends BaseContext>(options: Serving<TContext>, response: ServerResponse, result: HTTPGraphQLResponse, deadline: OperationDeadline): Promise<PublicErrorCode | undefined> {
  const bytes = result.body.kind === 'complete' ? Buffer.byteLength(result.body.string) : 0;
  if (bytes > options.maxResponseBytes) {
    const message = `The response would be ${bytes.toLocaleString('en')} bytes, over the limit of ${options.maxResponseBytes.toLocaleString('en')} (DOCJOIN_MAX_RESPONSE_BYTES); select fewer fields or ask for smaller pages`;
    const extensions = { code: PublicErrorCode.RESPONSE_TOO_LARGE, bytes, maxBytes: options.maxResponseBytes };
    if (!deadline.ranMutation || result.body.kind !== 'complete') {
      sendJson(response, 400, { errors: [{ message, extensions }] });
      return PublicErrorCode.RESPONSE_TOO_LARGE;
    }
    const answered = JSON.parse(result.body.string) as { extensions?: { cost?: { writes?: unknown } } };
    const told = answered.extensions?.cost?.writes === undefined ? '' : ' (extensions.cost.writes says what it wrote)';
    sendJson(response, 200, { errors: [{ message: `${message}. The mutation ran${told}: read before retrying it`, extensions }], data: null, ...(answered.extensions !== undefined && { extensions: answered.extensions }) });
    return PublicErrorCode.RESPONSE_TOO_LARGE;
  }
  response.statusCode = result.status ?? 200;
  for (const [name, value] of result.headers) response.setHeader(name, value);
  // A landing page (Apollo's Sandbox, or the IDE at /graphql).
  if (result.headers.get('content-type')?.startsWith('text/html')) setPageHeaders(response);
  if (result.body.kind === 'complete') {
    options.unread.send(response, result.body.string, bytes);
    return undefined;
  }
  for await (const chunk of result.body.asyncIterator) response.write(chunk);
  response.end();
  return undefined;
}

/**
 * The `cors` package's headers for `/graphql`; resolves true when it answered the request itself (a
 * preflight `OPTIONS`). With CORS off, a preflight is answered 204 without them, so the browser says
 * the origin is not allowed (Apollo would refuse it as a possible cross-site request forgery, which
 * sends a developer the wrong way).
 */
function corsMiddleware(option: CorsOption): (request: IncomingMessage, response: ServerResponse) => Promise<boolean> {
  if (option === false) {
    return async (request, response) => {
      if (request.method !== 'OPTIONS') return false;
      response.writeHead(204, { allow: 'GET, POST, OPTIONS', 'content-length': '0' }).end();
      return true;
    };
  }
  // A client waiting out a 429 or 503 reads Retry-After.
  const shared = { methods: ['GET', 'POST'], exposedHeaders: ['retry-after'] };
  const middleware = cors(
    option === true
      ? { origin: true, ...shared }
      : { origin: [...(typeof option.origin === 'string' ? [option.origin] : option.origin)], credentials: option.credentials ?? false, ...shared },
  );
  return (request, response) =>
    new Promise((resolve, reject) => {
      response.once('finish', () => resolve(true));
      middleware(request, response, (error?: unknown) => (error ? reject(error) : resolve(false)));
    });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.statusCode = status;
  response.setHeader('content-type', 'application/json; charset=utf-8');
  response.end(JSON.stringify(body));
}
