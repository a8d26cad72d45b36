import { loadProject } from 'docjoin';
import { DEMO_DIR } from '../support/demo-project';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildClientSchema, getIntrospectionQuery, Kind, OperationTypeNode, parse, printSchema, type IntrospectionQuery } from 'graphql';
import { Client, fetchExchange, type AnyVariables, type OperationResult, type TypedDocumentNode } from '@urql/core';
import { loadConfig } from '../../src/config/config';
import type { CostReport } from 'docjoin';
import {
  AuthorWithBooksDocument,
  BooksWithAuthorsDocument,
  HostLogsDocument,
  OpenTasksDocument,
  PersonProfileDocument,
  PostCommentsPageDocument,
  PostStatsDocument,
  ProductPartsDocument,
  RecentPostsDocument,
  RenameAuthorDocument,
  TasksDueBeforeDocument,
  type BooksWithAuthorsQuery,
  type PostCommentsPageQueryVariables,
} from '../../generated/client/graphql';
import { startServer, type RunningServer } from '../../src/server/start-server';
import { PUBLIC_SCHEMA_HEADER } from '../../src/codegen/public-schema';
import { testEstimateViolations } from '../support/checked-gateway';

/**
 * A frontend's view: the server started the way `npm start` starts it (embedded MongoDB, demo data at
 * scale 1, a free port), and every operation in operations/ sent over HTTP by urql with the typed
 * documents codegen generates. Checks the data (deterministic seed) and extensions.cost of each.
 */
let server: RunningServer;
let client: Client;
beforeAll(async () => {
  const project = await loadProject({ cwd: DEMO_DIR });
  server = await startServer(loadConfig({ PORT: '0' }, {}, project.config), project, { onEstimateViolation: testEstimateViolations.record });
  // POST, as most clients send queries; a GET needs Apollo's CSRF preflight header (tested below).
  client = new Client({ url: server.gateway.url!, exchanges: [fetchExchange], preferGetMethod: false, requestPolicy: 'network-only' });
}, 120_000);
afterAll(() => server?.stop());

/** Operation names sent so far, to check that every operation in operations/ is covered. */
const sent = new Set<string>();

async function run<Data, Variables extends AnyVariables>(
  document: TypedDocumentNode<Data, Variables>,
  variables: Variables,
  on: Client = client,
): Promise<{ data: Data; cost: CostReport }> {
  let mutation = false;
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    if (definition.name) sent.add(definition.name.value);
    mutation ||= definition.operation === OperationTypeNode.MUTATION;
  }
  const result: OperationResult<Data, Variables> = await (mutation ? on.mutation(document, variables) : on.query(document, variables)).toPromise();
  expect(result.error).toBeUndefined();
  return { data: result.data!, cost: result.extensions!.cost as CostReport };
}

/** The parts of extensions.cost that do not depend on timing. */
function shapeOf(cost: CostReport) {
  return {
    roundTrips: cost.roundTrips,
    estimatedRoundTrips: cost.estimatedRoundTrips,
    documents: cost.documents,
    fields: Object.fromEntries(Object.entries(cost.fields).map(([coordinate, field]) => [coordinate, `${field.strategy} ${field.roundTrips}`])),
    collections: cost.collections,
  };
}

describe('the example operations over HTTP with @urql/core and the generated documents', () => {
  it('BooksWithAuthors: publishers joined in one batch, authors free from the snapshot', async () => {
    const { data, cost } = await run(BooksWithAuthorsDocument, { first: 2 });
    // Typed by codegen: a misspelt field here fails `tsc`, not the user.
    const firstAuthor: string | undefined = data.books[0]?.authors[0]?.name;
    expect(firstAuthor).toBe('Yukihiro Hamilton');
    expect(data).toEqual<BooksWithAuthorsQuery>({
      books: [
        {
          id: '6955b9000700000000000001',
          name: 'Indexing in Action',
          isbn: '9780000123459',
          pages: 697,
          publishedAt: '2023-12-30T00:00:00.000Z',
          publisher: { id: '6955b9000600000000000001', name: 'Microsoft Press', location: 'New York' },
          authors: [
            { id: '6955b9000800000000000001', name: 'Yukihiro Hamilton', thumbnailUrl: 'https://images.example.com/authors/a1.png' },
            { id: '6955b900080000000000008a', name: 'Ida Kernighan', thumbnailUrl: 'https://images.example.com/authors/a138.png' },
            { id: '6955b9000800000000000020', name: 'Adele Goldwasser', thumbnailUrl: 'https://images.example.com/authors/a32.png' },
          ],
        },
        {
          id: '6955b9000700000000000002',
          name: 'Deep Dive into Sharding',
          isbn: '9780000202642',
          pages: 604,
          publishedAt: '1996-12-20T00:00:00.000Z',
          publisher: { id: '6955b900060000000000000a', name: 'Prentice Hall', location: 'Boston' },
          authors: [
            { id: '6955b9000800000000000002', name: 'Larry Dijkstra', thumbnailUrl: 'https://images.example.com/authors/a2.png' },
            { id: '6955b9000800000000000084', name: 'Andrew Wirth', thumbnailUrl: 'https://images.example.com/authors/a132.png' },
          ],
        },
      ],
    });
    expect(shapeOf(cost)).toEqual({
      roundTrips: 2,
      estimatedRoundTrips: 2,
      documents: 4,
      fields: { 'Book.authors': 'snapshot 0', 'Book.publisher': 'join 1' },
      collections: { books: { roundTrips: 1, documents: 2 }, publishers: { roundTrips: 1, documents: 2 } },
    });
    expect(cost.fields['Book.authors']).toMatchObject({ snapshotHits: 5, snapshotMisses: 0 });
  });

  it('PostStats: each post\'s comment figures and top commenters, every post\'s from one aggregate', async () => {
    const { data, cost } = await run(PostStatsDocument, { first: 4 });
    expect(data.posts).toHaveLength(4);
    for (const post of data.posts) {
      // The aggregate counts what the post's counter counts; its groups come most active first, at most 3.
      const { count, max, groupBy } = post.commentsAggregate;
      expect(count).toBe(post.commentCount);
      expect(max.createdAt === null).toBe(count === 0);
      const counts = groupBy.map((group) => group.count);
      expect(counts).toEqual([...counts].sort((a, b) => b - a));
      expect(groupBy.length).toBeLessThanOrEqual(3);
      expect(counts.reduce((sum, value) => sum + value, 0)).toBeLessThanOrEqual(count);
      const author: string | null | undefined = groupBy[0]?.key.author;
      expect(author === undefined).toBe(count === 0);
    }
    expect(shapeOf(cost)).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2, fields: { 'Post.commentsAggregate': 'join 1' } });
  });

  it('BooksWithAuthors with x-docjoin-strategy: the same data, one more round trip', async () => {
    const joining = new Client({
      url: server.gateway.url!,
      exchanges: [fetchExchange],
      preferGetMethod: false,
      requestPolicy: 'network-only',
      fetchOptions: { headers: { 'x-docjoin-strategy': 'Book.authors=join' } },
    });
    const snapshot = await run(BooksWithAuthorsDocument, { first: 2 });
    const joined = await run(BooksWithAuthorsDocument, { first: 2 }, joining);
    expect(joined.data).toEqual(snapshot.data);
    expect(shapeOf(joined.cost)).toEqual({
      roundTrips: 3,
      estimatedRoundTrips: 3,
      documents: 9,
      fields: { 'Book.authors': 'join 1', 'Book.publisher': 'join 1' },
      collections: { books: { roundTrips: 1, documents: 2 }, publishers: { roundTrips: 1, documents: 2 }, authors: { roundTrips: 1, documents: 5 } },
    });
  });

  it('AuthorWithBooks: the author, its 10 books by bookIds, their publishers: one query per level', async () => {
    const { data, cost } = await run(AuthorWithBooksDocument, { id: '6955b9000800000000000001' });
    expect(data.author).toMatchObject({
      id: '6955b9000800000000000001',
      name: 'Yukihiro Hamilton',
      thumbnailUrl: 'https://images.example.com/authors/a1.png',
      firstName: 'Yukihiro',
      lastName: 'Hamilton',
      countOfBooks: 10,
    });
    expect(data.author?.books.map((book) => `${book.name} (${book.publisher?.name})`)).toEqual([
      'Indexing in Action (Microsoft Press)',
      'JSON Documents in Action (MIT Press 2)',
      'The Art of Event Logging (Manning)',
      'GraphQL 101 (Manning 2)',
      'Practical Azure Cosmos DB (O\'Reilly Media 2)',
      'Deep Dive into Indexing (Apress)',
      'Sharding for RDBMS Users (No Starch Press 2)',
      'Event Logging for RDBMS Users (O\'Reilly Media)',
      'JSON Documents 101 (Packt)',
      'Practical Azure Cosmos DB (No Starch Press)',
    ]);
    expect(data.author?.books[0]).toEqual({
      id: '6955b9000700000000000001',
      name: 'Indexing in Action',
      publishedAt: '2023-12-30T00:00:00.000Z',
      publisher: { name: 'Microsoft Press' },
    });
    expect(shapeOf(cost)).toEqual({
      roundTrips: 3,
      estimatedRoundTrips: 3,
      documents: 21,
      fields: { 'Author.books': 'join 1', 'Book.publisher': 'join 1' },
      collections: { authors: { roundTrips: 1, documents: 1 }, books: { roundTrips: 1, documents: 10 }, publishers: { roundTrips: 1, documents: 10 } },
    });
    expect(cost.naiveRoundTrips).toBe(12);
  });

  it('HostLogs: recent logs embedded, an older page joined, each message naming its host from the snapshot', async () => {
    const { data, cost } = await run(HostLogsDocument, { ipaddr: '10.66.0.1', first: 2 });
    expect(data.host).toMatchObject({ id: '6955b9000b00000000000001', name: 'goofy.example.com', ipaddr: '10.66.0.1' });
    expect(data.host?.recentLogs).toHaveLength(10);
    expect(data.host?.recentLogs[9]).toEqual({ id: '6955b9000c000000000182b9', time: '2025-12-31T07:20:28.513Z', message: 'cpu is on fire!' });
    expect(data.host?.logs).toEqual([
      { id: '6955b9000c0000000001863d', time: '2025-12-31T22:20:30.868Z', message: 'user login failed (91 attempts)', host: { name: 'goofy.example.com' } },
      { id: '6955b9000c000000000185d9', time: '2025-12-31T20:40:27.269Z', message: 'backup finished in 31s', host: { name: 'goofy.example.com' } },
    ]);
    // The newest page of `logs` is the head of `recentLogs`: the same documents, two ways.
    expect(data.host?.logs.map((log) => log.id)).toEqual(data.host?.recentLogs.slice(0, 2).map((log) => log.id));
    // "Load more": the page after the last message shown is the next of recentLogs.
    const more = await run(HostLogsDocument, { ipaddr: '10.66.0.1', first: 2, after: data.host!.logs[1]!.id });
    expect(more.data.host?.logs.map((log) => log.id)).toEqual(data.host?.recentLogs.slice(2, 4).map((log) => log.id));
    expect(shapeOf(cost)).toEqual({
      roundTrips: 2,
      estimatedRoundTrips: 2,
      documents: 3,
      fields: { 'Host.logs': 'join 1', 'Host.recentLogs': 'embedded 0', 'LogMessage.host': 'snapshot 0' },
      collections: { hosts: { roundTrips: 1, documents: 1 }, logMessages: { roundTrips: 1, documents: 2 } },
    });
  });

  it('PersonProfile: embedded addresses, a contact-detail union, holdings joined to stocks, tasks joined', async () => {
    const { data, cost } = await run(PersonProfileDocument, { id: '6955b9000100000000000001' });
    expect(data.person).toEqual({
      id: '6955b9000100000000000001',
      firstName: 'Martin',
      lastName: 'Page',
      addresses: [{ street: '8818 Mill Lane', city: 'New York', state: 'NY', zip: '10023', country: 'USA' }],
      contactDetails: [
        { __typename: 'EmailContact', email: 'martin.page@example.com' },
        { __typename: 'SocialContact', network: 'linkedin', handle: '@martin_page' },
      ],
      holdings: [
        { numberHeld: 390, stock: { symbol: 'FFZG', open: 102.19, high: 103.47, low: 101.93 } },
        { numberHeld: 320, stock: { symbol: 'QCAP', open: 40.91, high: 42.84, low: 39.31 } },
      ],
      tasks: [
        { id: '6955b9000300000000000146', description: 'Renew expense claims', due: '2026-01-11T11:00:00.000Z', done: false },
        { id: '6955b9000300000000000255', description: 'Book the quarterly report', due: '2026-01-19T13:00:00.000Z', done: false },
        { id: '6955b90003000000000002dd', description: 'Update the portfolio', due: '2026-01-24T14:00:00.000Z', done: false },
        { id: '6955b9000300000000000495', description: 'File flights to Seattle', due: '2026-02-01T16:00:00.000Z', done: false },
        { id: '6955b900030000000000056b', description: 'Book passport', due: '2025-12-12T17:00:00.000Z', done: false },
        { id: '6955b90003000000000005a3', description: 'Schedule the leaking tap', due: '2026-02-23T09:00:00.000Z', done: false },
      ],
    });
    expect(shapeOf(cost)).toEqual({
      roundTrips: 3,
      estimatedRoundTrips: 3,
      documents: 9,
      fields: {
        'Holding.stock': 'join 1',
        'Person.addresses': 'embedded 0',
        'Person.contactDetails': 'embedded 0',
        'Person.holdings': 'embedded 0',
        'Person.tasks': 'join 1',
      },
      collections: { people: { roundTrips: 1, documents: 1 }, stocks: { roundTrips: 1, documents: 2 }, tasks: { roundTrips: 1, documents: 6 } },
    });
  });

  it('ProductParts: qty and price are not in the parts snapshot, so it misses and joins the 7 parts once', async () => {
    const { data, cost } = await run(ProductPartsDocument, { catalogNumber: '1234' });
    expect(data.product).toEqual({
      id: '6955b9000900000000000001',
      catalogNumber: '1234',
      name: 'left-handed smoke shifter',
      parts: [
        { id: '6955b9000a00000000000504', name: '#9 rubber O-ring', partno: '594-kch-966', qty: 361, price: 50.77 },
        { id: '6955b9000a0000000000053b', name: '#6 nylon hex nut', partno: '587-ywk-352', qty: 233, price: 44.78 },
        { id: '6955b9000a0000000000008b', name: '#5 steel bushing', partno: '770-drj-359', qty: 248, price: 81.03 },
        { id: '6955b9000a00000000000694', name: '#7 steel hex nut', partno: '251-jtd-485', qty: 437, price: 23.6 },
        { id: '6955b9000a00000000000383', name: '#7 aluminium grommet', partno: '423-npp-789', qty: 152, price: 3.67 },
        { id: '6955b9000a000000000006cb', name: '#12 rubber hex nut', partno: '946-rbe-239', qty: 139, price: 110.73 },
        { id: '6955b9000a0000000000074b', name: '#10 rubber gasket', partno: '703-lfx-316', qty: 282, price: 69.64 },
      ],
    });
    expect(shapeOf(cost)).toEqual({
      roundTrips: 2,
      estimatedRoundTrips: 2,
      documents: 8,
      fields: { 'Product.parts': 'snapshot 1' },
      collections: { products: { roundTrips: 1, documents: 1 }, parts: { roundTrips: 1, documents: 7 } },
    });
    expect(cost.fields['Product.parts']).toMatchObject({ snapshotHits: 0, snapshotMisses: 7 });
  });

  it('RecentPosts: the three newest comments come embedded in each post, one round trip in all', async () => {
    const { data, cost } = await run(RecentPostsDocument, { first: 2 });
    expect(data.posts).toEqual([
      {
        id: '6955b9000400000000000001',
        title: 'Why schema design matters',
        author: 'Elena Kare',
        createdAt: '2024-03-30T08:44:45.336Z',
        commentCount: 33,
        recentComments: [
          { id: '6955b9000500000000000021', author: 'nosql_nina', comment: 'yet more', createdAt: '2025-12-12T03:15:01.954Z' },
          { id: '6955b9000500000000000020', author: 'lurker', comment: 'yet more', createdAt: '2025-11-16T11:53:11.102Z' },
          { id: '6955b900050000000000001f', author: 'bored', comment: 'great write-up, thanks!', createdAt: '2025-11-03T10:00:07.679Z' },
        ],
      },
      {
        id: '6955b9000400000000000002',
        title: 'document databases: lessons learned',
        author: 'Katherine Tanenbaum',
        createdAt: '2025-11-29T23:08:10.160Z',
        commentCount: 17,
        recentComments: [
          { id: '6955b9000500000000000032', author: 'nosql_nina', comment: 'blah angry blah angry', createdAt: '2025-12-29T08:20:44.606Z' },
          { id: '6955b9000500000000000031', author: 'jane', comment: 'we tried this in production and it worked', createdAt: '2025-12-27T23:08:40.156Z' },
          { id: '6955b9000500000000000030', author: 'nosql_nina', comment: 'yet more', createdAt: '2025-12-26T09:17:26.401Z' },
        ],
      },
    ]);
    expect(shapeOf(cost)).toEqual({
      roundTrips: 1,
      estimatedRoundTrips: 1,
      documents: 2,
      fields: { 'Post.recentComments': 'embedded 0' },
      collections: { posts: { roundTrips: 1, documents: 2 } },
    });
  });

  it('PostCommentsPage: a pager over a post\'s 33 comments, cursor after cursor, with the total', async () => {
    const postId = '6955b9000400000000000001';
    const ids: string[] = [];
    let after: string | null = null;
    for (let page = 1; ; page++) {
      const variables: PostCommentsPageQueryVariables = { id: postId, first: 10, after };
      const { data, cost } = await run(PostCommentsPageDocument, variables);
      const connection = data.post!.commentsConnection;
      expect(connection.totalCount).toBe(33);
      expect(connection.edges.length).toBe(page < 4 ? 10 : 3);
      ids.push(...connection.edges.map((edge) => edge.node.id));
      // The post, then the page of comments and the count in one command: a cursor costs no extra read.
      expect(shapeOf(cost)).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2, fields: { 'Post.commentsConnection': 'join 1' }, collections: { posts: { roundTrips: 1, documents: 1 }, comments: expect.objectContaining({ roundTrips: 1 }) } });
      if (!connection.pageInfo.hasNextPage) break;
      after = connection.pageInfo.endCursor ?? null;
    }
    // The same comments, in the same order, as the plain list gives them.
    const plain = await client.query<{ post: { comments: Array<{ id: string }> } }>(`query ($id: ID!) { post(id: $id) { comments(first: 100) { id } } }`, { id: postId }).toPromise();
    expect(ids).toEqual(plain.data!.post.comments.map((comment) => comment.id));
    expect(ids.slice(0, 3)).toEqual(['6955b9000500000000000021', '6955b9000500000000000020', '6955b900050000000000001f']);
  });

  it("OpenTasks: a person's open tasks, soonest due first, filtered and sorted in the one batched read", async () => {
    const id = '6955b9000100000000000001';
    const { data, cost } = await run(OpenTasksDocument, { id });
    const all = (await run(PersonProfileDocument, { id })).data.person!.tasks;
    const open = all.filter((task) => !task.done).sort((a, b) => (a.due < b.due ? -1 : a.due > b.due ? 1 : a.id < b.id ? -1 : 1));
    expect(open.length).toBeGreaterThan(0);
    expect(data.person!.tasks).toEqual(open);
    expect(shapeOf(cost)).toMatchObject({ roundTrips: 2, estimatedRoundTrips: 2, fields: { 'Person.tasks': 'join 1' } });
  });

  it('RecentPosts over GET, as urql sends queries by default, with the CSRF preflight header Apollo asks for', async () => {
    const getClient = new Client({
      url: server.gateway.url!,
      exchanges: [fetchExchange],
      requestPolicy: 'network-only',
      fetchOptions: { headers: { 'apollo-require-preflight': 'true' } },
    });
    const viaGet = await run(RecentPostsDocument, { first: 2 }, getClient);
    const viaPost = await run(RecentPostsDocument, { first: 2 });
    expect(viaGet.data).toEqual(viaPost.data);
    expect(viaGet.cost.roundTrips).toBe(1);
  });

  it('TasksDueBefore: a DateTime variable as an ISO string, each owner joined back in one batch', async () => {
    const { data, cost } = await run(TasksDueBeforeDocument, { dueBefore: '2026-01-01T00:00:00.000Z', first: 3 });
    expect(data.tasks).toEqual([
      {
        id: '6955b9000300000000000001',
        description: "Update last year's invoices",
        due: '2025-12-29T13:00:00.000Z',
        done: true,
        owner: { id: '6955b9000100000000000133', firstName: 'Peter', lastName: 'Kempf' },
      },
      {
        id: '6955b9000300000000000006',
        description: "Schedule last year's invoices",
        due: '2025-12-16T08:00:00.000Z',
        done: false,
        owner: { id: '6955b90001000000000000ae', firstName: 'Yukihiro', lastName: 'Goldberg' },
      },
      {
        id: '6955b9000300000000000009',
        description: 'Renew the portfolio',
        due: '2025-12-08T18:00:00.000Z',
        done: false,
        owner: { id: '6955b90001000000000001ad', firstName: 'Brian', lastName: 'Allen' },
      },
    ]);
    expect(shapeOf(cost)).toEqual({
      roundTrips: 2,
      estimatedRoundTrips: 2,
      documents: 6,
      fields: { 'Task.owner': 'join 1' },
      collections: { tasks: { roundTrips: 1, documents: 3 }, people: { roundTrips: 1, documents: 3 } },
    });
  });

  // Last among the operations: it changes data the queries above read.
  it('RenameAuthor: a mutation over HTTP; its writes fan out to the snapshot in each of the author\'s books', async () => {
    const { data, cost } = await run(RenameAuthorDocument, { id: '6955b9000800000000000002', firstName: 'Barbara', lastName: 'Liskov' });
    expect(data.renameAuthor).toEqual({ id: '6955b9000800000000000002', firstName: 'Barbara', lastName: 'Liskov', name: 'Barbara Liskov', countOfBooks: 8 });
    // update authors, updateMany books (arrayFilters), commitTransaction; the embedded server runs transactions.
    expect(cost.writes).toEqual({ roundTrips: 3, documentsModified: 9, fanOut: { authors: 1, books: 8 }, atomic: true, attempts: 1 });
    // Plus the read back of the author.
    expect(cost.roundTrips).toBe(4);

    // The second book's snapshot names the author anew, still without a query to authors.
    const after = await run(BooksWithAuthorsDocument, { first: 2 });
    expect(after.data.books[1]?.authors[0]).toEqual({ id: '6955b9000800000000000002', name: 'Barbara Liskov', thumbnailUrl: 'https://images.example.com/authors/a2.png' });
    expect(after.cost.fields['Book.authors']).toMatchObject({ strategy: 'snapshot', roundTrips: 0 });
  });

  it('introspection over HTTP prints exactly schema.public.graphql: clients see no storage directives', async () => {
    const response = await fetch(server.gateway.url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: getIntrospectionQuery() }) });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: IntrospectionQuery; errors?: unknown };
    expect(body.errors).toBeUndefined();
    const printed = printSchema(buildClientSchema(body.data));
    expect(`${PUBLIC_SCHEMA_HEADER}${printed}\n`).toBe(readFileSync(join(DEMO_DIR, 'schema.public.graphql'), 'utf8'));
    expect(printed).not.toMatch(/@(collection|join|snapshot|embedded|read|counter|inverse)\b/);
  });

  it('ran every operation in operations/ (add a test here when you add one)', () => {
    const folder = join(DEMO_DIR, 'operations');
    const declared = readdirSync(folder)
      .filter((name) => name.endsWith('.graphql'))
      .flatMap((name) => parse(readFileSync(join(folder, name), 'utf8')).definitions)
      .flatMap((definition) => (definition.kind === Kind.OPERATION_DEFINITION && definition.name ? [definition.name.value] : []));
    expect([...sent].sort()).toEqual([...declared].sort());
  });
});
