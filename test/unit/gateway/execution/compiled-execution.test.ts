import { ApolloServer, type ApolloServerOptions, type ApolloServerPlugin, type BaseContext } from '@apollo/server';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { compiledExecutionPlugin } from '../../../../src/gateway/execution/compiled-execution';

/** The compiled plugin answers exactly as Apollo's own execution does, errors included. */
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

/** Apollo's own executions, which the compiled plugin's answers skip. */
let apolloExecutions = 0;
const countApolloExecutions: ApolloServerPlugin = {
  async requestDidStart() {
    return {
      async executionDidStart() {
        apolloExecutions += 1;
      },
    };
  },
};

async function bothAnswers(shaping: Shaping, query: string, variables?: Record<string, unknown>) {
  const interpreted = new ApolloServer({ schema, ...shaping });
  const compiled = new ApolloServer({ schema, ...shaping, plugins: [compiledExecutionPlugin(schema, shaping), countApolloExecutions] });
  apolloExecutions = 0;
  const answers = await Promise.all(
    [interpreted, compiled].map(async (server) => {
      const response = await server.executeOperation({ query, ...(variables && { variables }) });
      if (response.body.kind !== 'single') throw new Error('expected a single result');
      return { status: response.http.status, headers: Object.fromEntries(response.http.headers), body: JSON.parse(JSON.stringify(response.body.singleResult)) as { data?: unknown; errors?: GraphQLFormattedError[] } };
    }),
  );
  return { interpreted: answers[0]!, compiled: answers[1]!, apolloExecutions };
}

/** Stack traces differ by the frames of each executor: compare their first line only. */
const firstLines = (answer: { body: { errors?: GraphQLFormattedError[] } }) => answer.body.errors?.map((error) => (error.extensions?.stacktrace as string[] | undefined)?.[0]);
const withoutStacks = <T extends { body: { errors?: GraphQLFormattedError[] } }>(answer: T): T => ({
  ...answer,
  body: { ...answer.body, ...(answer.body.errors && { errors: answer.body.errors.map(({ extensions, ...error }) => ({ ...error, extensions: { ...extensions, stacktrace: undefined } })) }) },
});

describe('compiledExecutionPlugin', () => {
  it('answers data as graphql-js does', async () => {
    const { interpreted, compiled, apolloExecutions } = await bothAnswers({ includeStacktraceInErrorResponses: false }, 'query($n: Int!) { ok(n: $n) nested { name } }', { n: 21 });
    expect(compiled.body).toEqual({ data: { ok: 42, nested: { name: 'thing' } } });
    expect(apolloExecutions).toBe(0);
    expect(compiled).toEqual(interpreted);
  });

  it("moves an error's extensions.http to the response status and headers, defaults the code, leaves an odd http alone", async () => {
    const { interpreted, compiled, apolloExecutions } = await bothAnswers({ includeStacktraceInErrorResponses: false }, '{ teapot plain nested { broken } }');
    expect(apolloExecutions).toBe(0);
    expect(compiled.status).toBe(418);
    expect(compiled.headers).toMatchObject({ 'x-brew': 'tea' });
    expect(compiled.body.errors!.map((error) => error.extensions)).toEqual([{ code: 'TEAPOT' }, { code: 'INTERNAL_SERVER_ERROR' }, { code: 'ODD', http: 'not a head' }]);
    expect(compiled).toEqual(interpreted);
  });

  it('includes stack traces when the server does', async () => {
    const { interpreted, compiled } = await bothAnswers({ includeStacktraceInErrorResponses: true }, '{ plain }');
    expect(firstLines(compiled)).toEqual(['Error: plain failure']);
    expect(firstLines(compiled)).toEqual(firstLines(interpreted));
    expect(withoutStacks(compiled)).toEqual(withoutStacks(interpreted));
  });

  it("applies formatError, and answers an internal error when formatError throws", async () => {
    const formatError = (formatted: GraphQLFormattedError) => {
      if (formatted.message === 'plain failure') throw new Error('formatError broke');
      return { ...formatted, message: `formatted: ${formatted.message}` };
    };
    const { interpreted, compiled } = await bothAnswers({ includeStacktraceInErrorResponses: false, formatError }, '{ teapot plain }');
    expect(compiled.body.errors!.map((error) => error.message)).toEqual(['formatted: short and stout', 'Internal server error']);
    expect(compiled).toEqual(interpreted);
  });

  it('leaves variables that do not coerce to Apollo: 400 BAD_USER_INPUT, nothing executed', async () => {
    const { interpreted, compiled, apolloExecutions } = await bothAnswers({ includeStacktraceInErrorResponses: false }, 'query($n: Int!) { ok(n: $n) }', { n: 'two' });
    expect(apolloExecutions).toBe(1);
    expect(compiled.status).toBe(400);
    expect(compiled.body.errors!.map((error) => error.extensions?.code)).toEqual(['BAD_USER_INPUT']);
    expect(compiled.body.data).toBeUndefined();
    expect(compiled).toEqual(interpreted);
  });
});
