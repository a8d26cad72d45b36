import { ApolloServer, HeaderMap, type ApolloServerOptions, type BaseContext } from '@apollo/server';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { execute, GraphQLError, parse, type GraphQLFormattedError } from 'graphql';
import { shapeError } from '../../../../../src/gateway/request/execution/compiled-execution';

/** Errors of operations docjoin runs itself are shaped exactly as Apollo's own execution shapes them. */
const schema = makeExecutableSchema({
  typeDefs: `type Query { ok(n: Int!): Int, teapot: Int, plain: Int, nested: Thing }
             type Thing { name: String!, broken: String }`,
  resolvers: {
    Query: {
      ok: (_: unknown, { n }: { n: number }) => n * 2,
      teapot: () => {
        throw new GraphQLError('short and stout', { extensions: { code: 'TEAPOT', http: { status: 418, headers: new Map([['x-brew', 'tea']]) } } });
      },
      plain: () => {
        throw new Error('plain failure');
      },
      nested: () => ({ name: 'thing' }),
    },
    Thing: {
      broken: () => {
        throw new GraphQLError('weird http', { extensions: { code: 'ODD', http: 'not a head' } });
      },
    },
  },
});

type Shaping = Pick<ApolloServerOptions<BaseContext>, 'formatError'> & { includeStacktraceInErrorResponses: boolean };

/**
 * The answer of Apollo's own execution, and the same operation's graphql-js errors shaped by
 * shapeError (what the plugin sends for an operation it runs itself).
 */
async function bothAnswers(shaping: Shaping, query: string) {
  const apollo = new ApolloServer({ schema, ...shaping });
  const response = await apollo.executeOperation({ query });
  if (response.body.kind !== 'single') throw new Error('expected a single result');
  // Apollo's cache-control plugin sets its header on every response, whoever executed it.
  const { 'cache-control': _cacheControl, ...headers } = Object.fromEntries(response.http.headers);
  const interpreted = { status: response.http.status, headers, body: JSON.parse(JSON.stringify(response.body.singleResult)) as { data?: unknown; errors?: GraphQLFormattedError[] } };
  const result = await execute({ schema, document: parse(query) });
  const http = { status: undefined as number | undefined, headers: new HeaderMap() };
  const errors = result.errors?.map((error) => shapeError(error, shaping, http));
  const shaped = { status: http.status, headers: Object.fromEntries(http.headers), body: JSON.parse(JSON.stringify({ ...(errors && { errors }), data: result.data })) as { data?: unknown; errors?: GraphQLFormattedError[] } };
  return { interpreted, shaped };
}

/** Stack traces differ by the frames of each executor: compare their first line only. */
const firstLines = (answer: { body: { errors?: GraphQLFormattedError[] } }) => answer.body.errors?.map((error) => (error.extensions?.stacktrace as string[] | undefined)?.[0]);
const withoutStacks = <T extends { body: { errors?: GraphQLFormattedError[] } }>(answer: T): T => ({
  ...answer,
  body: { ...answer.body, ...(answer.body.errors && { errors: answer.body.errors.map(({ extensions, ...error }) => ({ ...error, extensions: { ...extensions, stacktrace: undefined } })) }) },
});

describe('shapeError', () => {
  it("moves an error's extensions.http to the response status and headers, defaults the code, leaves an odd http alone", async () => {
    const { interpreted, shaped } = await bothAnswers({ includeStacktraceInErrorResponses: false }, '{ teapot plain nested { broken } }');
    expect(shaped.status).toBe(418);
    expect(shaped.headers).toMatchObject({ 'x-brew': 'tea' });
    expect(shaped.body.errors!.map((error) => error.extensions)).toEqual([{ code: 'TEAPOT' }, { code: 'INTERNAL_SERVER_ERROR' }, { code: 'ODD', http: 'not a head' }]);
    expect(shaped).toEqual(interpreted);
  });

  it('includes stack traces when the server does', async () => {
    const { interpreted, shaped } = await bothAnswers({ includeStacktraceInErrorResponses: true }, '{ plain }');
    expect(firstLines(shaped)).toEqual(['Error: plain failure']);
    expect(firstLines(shaped)).toEqual(firstLines(interpreted));
    expect(withoutStacks(shaped)).toEqual(withoutStacks(interpreted));
  });

  it('applies formatError, and answers an internal error when formatError throws', async () => {
    const formatError = (formatted: GraphQLFormattedError) => {
      if (formatted.message === 'plain failure') throw new Error('formatError broke');
      return { ...formatted, message: `formatted: ${formatted.message}` };
    };
    const { interpreted, shaped } = await bothAnswers({ includeStacktraceInErrorResponses: false, formatError }, '{ teapot plain }');
    expect(shaped.body.errors!.map((error) => error.message)).toEqual(['formatted: short and stout', 'Internal server error']);
    expect(shaped).toEqual(interpreted);
  });
});
