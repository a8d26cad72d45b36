import { capturedLogger } from '../../support/captured-logger';
import { createCheckedGateway } from '../../support/checked-gateway';
import { mongoForFile } from '../../support/test-mongo';

/**
 * A request whose client got another answer than its operation's (RESPONSE_TOO_LARGE in its place, a
 * 504 OPERATION_TIMEOUT at the deadline's overrun) is logged and counted under the error its client
 * got, not as the operation's own answer (ok, at info).
 */
const SDL = /* GraphQL */ `
  type Query { blob: String! held: String! }
`;
let release = (): void => undefined;
const resolvers = {
  Query: {
    blob: () => 'x'.repeat(2_000),
    // Answers only when the test lets it: past its deadline's overrun.
    held: () => new Promise<string>((resolve) => (release = () => resolve('released'))),
  },
};

const file = mongoForFile();
const { logger, lines } = capturedLogger();

const metric = (text: string, series: string) => {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
};
const outcomes = async (url: string) => {
  const text = await (await fetch(url.replace('/graphql', '/metrics'))).text();
  const series = (outcome: string) => metric(text, `docjoin_requests_total{operation="anonymous",outcome="${outcome}"}`);
  return { ok: series('ok'), RESPONSE_TOO_LARGE: series('RESPONSE_TOO_LARGE'), OPERATION_TIMEOUT: series('OPERATION_TIMEOUT') };
};
const post = (url: string, query: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });

it('logs and counts a response replaced by RESPONSE_TOO_LARGE under that code', async () => {
  const gateway = await createCheckedGateway({ typeDefs: SDL, resolvers, mongoClient: file.client, db: 'replaced_answers', port: 0, logger, validateDatabase: false, maxResponseBytes: 600 });
  try {
    lines.length = 0;
    const response = await post(gateway.url!, '{ blob }');
    const body = (await response.json()) as { errors: Array<{ extensions: { code: string } }> };
    expect([response.status, body.errors.map((error) => error.extensions.code)]).toEqual([400, ['RESPONSE_TOO_LARGE']]);
    // Written right after the answer, before its client could read it.
    expect(lines.map((line) => [line.level, line.msg, line.errorCodes])).toEqual([[30, 'operation', ['RESPONSE_TOO_LARGE']]]);
    expect(await outcomes(gateway.url!)).toEqual({ ok: 0, RESPONSE_TOO_LARGE: 1, OPERATION_TIMEOUT: 0 });
  } finally {
    await gateway.stop();
  }
});

it('logs a request answered 504 at its overrun as a failed OPERATION_TIMEOUT once its work ends, and counts it so', async () => {
  const gateway = await createCheckedGateway({ typeDefs: SDL, resolvers, mongoClient: file.client, db: 'replaced_answers', port: 0, logger, validateDatabase: false, operationTimeoutMs: 200, shutdownGraceMs: 10_000 });
  try {
    lines.length = 0;
    const response = await post(gateway.url!, '{ held }');
    const body = (await response.json()) as { errors: Array<{ extensions: { code: string } }> };
    expect([response.status, body.errors.map((error) => error.extensions.code)]).toEqual([504, ['OPERATION_TIMEOUT']]);
    expect(lines).toEqual([]);
    // Its work ends: the resolver answers, and graphql-js with it.
    release();
    while (lines.length === 0) await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((line) => [line.level, line.msg, line.errorCodes])).toEqual([[50, 'operation failed', ['OPERATION_TIMEOUT']]]);
    expect(await outcomes(gateway.url!)).toEqual({ ok: 0, RESPONSE_TOO_LARGE: 0, OPERATION_TIMEOUT: 1 });
  } finally {
    await gateway.stop();
  }
});
