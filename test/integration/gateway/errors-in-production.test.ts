import { startDemoGateway, type DemoGateway } from './support/demo-gateway';

/** NODE_ENV=production: overrides are off, errors carry public codes and no stack traces. */
let demo: DemoGateway;
beforeAll(async () => {
  demo = await startDemoGateway({ env: { NODE_ENV: 'production' }, listen: true });
}, 120_000);
afterAll(() => demo?.stop());

describe('in production', () => {
  it('ignores the strategy header (overrides are disabled)', async () => {
    const result = await demo.gateway.execute({ query: '{ books(first: 5) { authors { name } } }' }, { strategyHeader: 'Book.authors=join' });
    expect(result.cost!.roundTrips).toBe(1);
    expect(result.cost!.fields['Book.authors']!.strategy).toBe('snapshot');
  });

  it('reports bad input without a stack trace', async () => {
    const result = await demo.gateway.execute({ query: '{ book(id: "nope") { name } books(first: 1000) { name } }' });
    expect(result.errors).toEqual([
      { message: 'id must be a 24-character hexadecimal ObjectId, got "nope"', locations: [{ line: 1, column: 3 }], path: ['book'], extensions: { code: 'BAD_USER_INPUT', argumentName: 'id' } },
      { message: 'first must be between 0 and 100, got 1000', locations: [{ line: 1, column: 29 }], path: ['books'], extensions: { code: 'BAD_USER_INPUT', argumentName: 'first' } },
    ]);
  });

  it('reports a bad DateTime, as a literal or a variable, as BAD_USER_INPUT without a stack trace', async () => {
    const literal = await demo.gateway.execute({ query: '{ tasks(dueBefore: "next tuesday") { description } }' });
    // Rejected in validation (the scalar's parseLiteral), located at the literal.
    expect(literal.errors).toEqual([{ message: 'DateTime must be an ISO-8601 string like 2026-11-21T09:30:00.000Z, got "next tuesday"', locations: [{ line: 1, column: 20 }], extensions: { code: 'BAD_USER_INPUT' } }]);
    const variable = await demo.gateway.execute({ query: 'query ($d: DateTime) { tasks(dueBefore: $d) { description } }', variables: { d: 'nope' } });
    expect(variable.errors).toEqual([
      {
        message: 'Variable "$d" got invalid value "nope"; DateTime must be an ISO-8601 string like 2026-11-21T09:30:00.000Z, got "nope"',
        locations: [{ line: 1, column: 8 }],
        extensions: { code: 'BAD_USER_INPUT' },
      },
    ]);
  });

  it('reports a variable sent as null for a non-null argument, a field\'s or @include\'s, as BAD_USER_INPUT with its message, where graphql-js gives no code', async () => {
    const argument = await demo.gateway.execute({ query: 'query ($id: ID = "000000000000000000000001") { book(id: $id) { name } }', variables: { id: null } });
    expect([argument.data, argument.errors]).toEqual([
      { book: null },
      [{ message: 'Argument "id" of non-null type "ID!" must not be null.', locations: [{ line: 1, column: 57 }], path: ['book'], extensions: { code: 'BAD_USER_INPUT' } }],
    ]);
    expect(argument.cost!.roundTrips).toBe(0);
    // graphql-js collects the fields before it runs them: the error is at the selection's parent (none at the root).
    const atRoot = await demo.gateway.execute({ query: 'query ($b: Boolean = true) { books(first: 1) @include(if: $b) { name } }', variables: { b: null } });
    expect([atRoot.data, atRoot.errors]).toEqual([null, [{ message: 'Argument "if" of non-null type "Boolean!" must not be null.', locations: [{ line: 1, column: 59 }], extensions: { code: 'BAD_USER_INPUT' } }]]);
    const below = await demo.gateway.execute({ query: 'query ($b: Boolean = true) { books(first: 1) { name @skip(if: $b) } }', variables: { b: null } });
    expect(below.errors).toEqual([{ message: 'Argument "if" of non-null type "Boolean!" must not be null.', locations: [{ line: 1, column: 63 }], path: ['books', 0], extensions: { code: 'BAD_USER_INPUT' } }]);
  });

  it("names no enum value or input field a variable's value could have meant, as validation names no field (introspection is off)", async () => {
    const status = await demo.gateway.execute({ query: 'query ($s: TaskStatus) { tasks(status: $s) { description } }', variables: { s: 'DNOE' } });
    expect(status.errors).toEqual([{ message: 'Variable "$s" got invalid value "DNOE"; Value "DNOE" does not exist in "TaskStatus" enum.', locations: [{ line: 1, column: 8 }], extensions: { code: 'BAD_USER_INPUT' } }]);
    const book = { name: 'N', isbn: '1', pages: 1, publishedAt: '2026-01-01T00:00:00.000Z', publisherId: '000000000000000000000001', authorIds: [], isbm: '2' };
    const input = await demo.gateway.execute({ query: 'mutation ($i: PublishBookInput!) { publishBook(input: $i) { name } }', variables: { i: book } });
    expect(input.errors?.map((error) => [error.extensions?.code, error.message.replace(/ \{.*\};/, ' …;')])).toEqual([['BAD_USER_INPUT', 'Variable "$i" got invalid value …; Field "isbm" is not defined by type "PublishBookInput".']]);
    const field = await demo.gateway.execute({ query: '{ boks(first: 1) { name } }' });
    expect(field.errors?.map((error) => error.message)).toEqual(['Cannot query field "boks" on type "Query".']);
  });

  it('reports an after that is not an id as BAD_USER_INPUT without a stack trace', async () => {
    const result = await demo.gateway.execute({ query: '{ books(after: "bm90IGEgY3Vyc29y") { name } }' });
    expect(result.errors).toEqual([
      {
        message: 'after must be the id of the last item you received, an ObjectId of 24 hexadecimal characters (a list of documents whose ids are no ObjectIds cannot be paged after: read it with first alone), got "bm90IGEgY3Vyc29y"',
        locations: [{ line: 1, column: 3 }],
        path: ['books'],
        extensions: { code: 'BAD_USER_INPUT', argumentName: 'after' },
      },
    ]);
    expect(result.cost!.roundTrips).toBe(0);
  });

  it('treats $ operators as data: an operator string is a literal, an operator object a BAD_USER_INPUT without a stack trace', async () => {
    const literal = await demo.gateway.execute({ query: 'query ($s: String!) { stock(symbol: $s) { symbol } }', variables: { s: '{"$gt": ""}' } });
    expect([literal.data, literal.errors]).toEqual([{ stock: null }, undefined]);
    const object = await demo.gateway.execute({ query: 'query ($s: String!) { stock(symbol: $s) { symbol } }', variables: { s: { $gt: '' } } });
    expect(object.errors).toEqual([
      { message: 'Variable "$s" got invalid value { $gt: "" }; String cannot represent a non string value: { $gt: "" }', locations: [{ line: 1, column: 8 }], extensions: { code: 'BAD_USER_INPUT' } },
    ]);
    expect(object.cost!.roundTrips).toBe(0);
  });

  it('answers book(id: "x") over HTTP with the exact public error shape', async () => {
    const response = await fetch(demo.gateway.url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ book(id: "x") { name } }' }) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      data: { book: null },
      errors: [{ message: 'id must be a 24-character hexadecimal ObjectId, got "x"', locations: [{ line: 1, column: 3 }], path: ['book'], extensions: { code: 'BAD_USER_INPUT', argumentName: 'id' } }],
      extensions: { cost: { roundTrips: 0, documents: 0, bytes: 0, durationMs: 0, estimatedRoundTrips: 1, estimatedDocuments: 1, naiveRoundTrips: 0, fields: {}, collections: {} } },
    });
  });

  it('reports a write MongoDB refuses (a document that breaks what it expects) as an internal error, not as the database unavailable: /health stays ok', async () => {
    const { gateway, client, dbName } = demo;
    const books = client.db(dbName).collection('books');
    const book = await books.findOne({ 'authors.0': { $exists: true } });
    const authorId = (book!.authors as Array<{ id: unknown }>)[0]!.id;
    await books.updateOne({ _id: book!._id }, { $set: { authors: { id: authorId } } });
    try {
      const response = await fetch(gateway.url!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'mutation ($id: ID!) { renameAuthor(id: $id, firstName: "A", lastName: "B") { id } }', variables: { id: String(authorId) } }),
      });
      const body = (await response.json()) as { errors: unknown };
      expect(body.errors).toEqual([{ message: 'Internal server error', locations: [{ line: 1, column: 23 }], path: ['renameAuthor'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }]);
      const health = await fetch(gateway.url!.replace('/graphql', '/health'));
      expect([health.status, await health.json()]).toEqual([200, { status: 'ok' }]);
    } finally {
      await books.updateOne({ _id: book!._id }, { $set: { authors: book!.authors } });
    }
  });

  it('turns a database failure into DATABASE_UNAVAILABLE, and keeps serving', async () => {
    const { gateway, client } = demo;
    await client.close();
    const result = await gateway.execute({ query: '{ books(first: 2) { name } }' });
    expect(result.errors).toEqual([
      { message: 'The database is unavailable; try again later', locations: [{ line: 1, column: 3 }], path: ['books'], extensions: { code: 'DATABASE_UNAVAILABLE' } },
    ]);
    expect(result.data).toBeNull();
  });
});
