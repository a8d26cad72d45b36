import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExplainCli } from '../../../../src/cli/explain/run-explain';
import { EXPLAIN_USAGE } from '../../../../src/cli/explain/explain-args';
import { DEMO_CONFIG, DEMO_DIR } from '../../../support/demo-project';
import { captureIo } from '../capture-io';

/** `docjoin explain` without --run: the static plan only, so no database. */
describe('runExplainCli without --run', () => {
  it('prints the plan: estimate, limits, one row per field with the alternatives', async () => {
    const { io, out, err } = captureIo();
    const code = await runExplainCli(['--config', DEMO_CONFIG, '{ books(first: 50) { name publisher { name } authors { name countOfBooks } } }'], {}, io);
    expect(err()).toBe('');
    expect(code).toBe(0);
    expect(out()).toBe(
      [
        'query (anonymous): estimated before execution 3 round trips, at most 1,100 documents, depth 2',
        'within the limits (50 round trips, 100,000 documents, depth 10, 500,000 response objects)',
        'response: up to 1,100 objects, about 60.4 KiB as JSON',
        '',
        '  field              strategy    est. round trips   other strategies (whole operation)',
        '  Query.books        root find   1',
        '    Book.publisher   join        1                  lookup → 2 round trips (−1)',
        '    Book.authors     snapshot    1                  join → 3 round trips (±0), lookup → 2 round trips (−1)',
        '',
        '  est. round trips: what the field itself adds to the estimate (the fields below it are their own rows).',
        '',
      ].join('\n'),
    );
  });

  it('--plan prints the tree docjoin runs first: each field in response order with its step, the strategies of --strategy', async () => {
    const { io, out, err } = captureIo();
    const query = 'query Shelf($full: Boolean!) { __typename books(first: 2) { name title: name @include(if: $full) publisher { name } authors { name } } }';
    const code = await runExplainCli(['--config', DEMO_CONFIG, '--plan', '--strategy', 'Book.authors=join', '--variables', '{"full": false}', query], {}, io);
    expect(err()).toBe('');
    expect(code).toBe(0);
    expect(out().split('\n\n')[0]).toBe(
      [
        'query Shelf: depth 2; docjoin runs it level by level from this tree',
        '  __typename',
        '  books  Query.books, generated root: one find',
        '    ↳ find on books; selection\'s projection { _id: 1, authors.id: 1, name: 1, publisherId: 1 }; est. 1 round trip, ≤ 2 documents',
        '    name  stored value',
        '    publisher  Book.publisher, join (declared: join) [by lookup: −1 round trip]',
        '      ↳ find on publishers: _id $in keys; batch key:publishers|_id; selection\'s projection { _id: 1, name: 1 }; est. 1 round trip, ≤ 2 documents',
        '      name  stored value',
        '    authors  Book.authors, join (declared: join, snapshot) [by snapshot: −1 round trip; by lookup: −1 round trip]',
        '      ↳ find on authors: _id $in keys; batch key:authors|_id; selection\'s projection { _id: 1, name: 1 }; est. 1 round trip, ≤ 40 documents',
        '      name  stored value',
      ].join('\n'),
    );
  });

  it('--plan shows each step\'s read: no command for an embedded or copied one, one batch shared by two aliases, a page per parent', async () => {
    const { io, out } = captureIo();
    const query = '{ posts(first: 10) { recentComments { author } comments(first: 2) { comment } } books(first: 2) { authors { name } publisher { name } p2: publisher { location } } }';
    expect(await runExplainCli(['--config', DEMO_CONFIG, '--plan', query], {}, io)).toBe(0);
    expect(out().split('\n\n')[0]).toBe(
      [
        'query: depth 2; docjoin runs it level by level from this tree',
        '  posts  Query.posts, generated root: one find',
        '    ↳ find on posts; selection\'s projection { _id: 1, recentComments._id: 1, recentComments.author: 1 }; est. 1 round trip, ≤ 10 documents',
        '    recentComments  Post.recentComments, embedded (declared: embedded, join): read from its parent\'s recentComments, no command [by join: no change; by lookup: no change]',
        '      author  stored value',
        '    comments  Post.comments, join (declared: join) [by lookup: −1 round trip]',
        '      ↳ aggregate on comments: 2 per parent by postId, sorted -createdAt,-_id; batch ref:comments|bounded; selection\'s projection { _id: 1, comment: 1 }; est. 1 round trip, ≤ 20 documents',
        '      comment  stored value',
        '  books  Query.books, generated root: one find',
        '    ↳ find on books; selection\'s projection { _id: 1, authors: 1, publisherId: 1 }; est. 1 round trip, ≤ 2 documents',
        '    authors  Book.authors, snapshot (declared: join, snapshot): read from the copy in its parent\'s authors, no command [by join: +1 round trip; by lookup: no change]',
        '      name  stored value',
        '    publisher  Book.publisher, join (declared: join) [by lookup: −1 round trip]',
        '      ↳ find on publishers: _id $in keys; batch key:publishers|_id; selection\'s projection { _id: 1, name: 1 }; est. 1 round trip, ≤ 4 documents',
        '      name  stored value',
        '    p2: publisher  Book.publisher, join (declared: join)',
        '      ↳ find on publishers: _id $in keys; in the batch of Book.publisher (publisher); selection\'s projection { _id: 1, location: 1 }',
        '      location  stored value',
      ].join('\n'),
    );
  });

  it('an aggregate whose aliases are read two ways says how each is: from the parent\'s counter, by a command', async () => {
    const query = '{ posts(first: 3) { c: commentsAggregate { count } m: commentsAggregate { max { createdAt } } } }';
    const { io, out } = captureIo();
    expect(await runExplainCli(['--config', DEMO_CONFIG, '--plan', query], {}, io)).toBe(0);
    const [tree, table] = [out().split('\n\n')[0]!.split('\n'), out()];
    expect(tree.slice(3, 6)).toEqual([
      "    c: commentsAggregate  Post.commentsAggregate: read from its parent's counter Post.commentCount, no command",
      '      count  stored value',
      '    m: commentsAggregate  Post.commentsAggregate',
    ]);
    expect(tree[6]).toMatch(/^ {6}↳ aggregate on comments: \$match postId \$in keys, \$group by postId; .*est\. 1 round trip/);
    expect(table).toContain(
      "    Post.commentsAggregate   aggregate   1                  posts.c: read from its parent's counter Post.commentCount, no command; posts.m: aggregate on comments: $match postId $in keys, $group by postId\n",
    );
    // One response key at two places is told apart by its path.
    const twoPlaces = captureIo();
    const elsewhere = '{ posts(first: 2) { c: commentsAggregate { count } } post(id: "65a000000000000000000001") { c: commentsAggregate { max { createdAt } } } }';
    expect(await runExplainCli(['--config', DEMO_CONFIG, elsewhere], {}, twoPlaces.io)).toBe(0);
    expect(twoPlaces.out()).toContain("posts.c: read from its parent's counter Post.commentCount, no command; post.c: aggregate on comments:");
  });

  it('--plan names why graphql-js runs an operation docjoin does not own', async () => {
    const { io, out } = captureIo();
    expect(await runExplainCli(['--config', DEMO_CONFIG, '--plan', '{ books(first: 1) { name } people(first: 1) { contactDetails { __typename } } }'], {}, io)).toBe(0);
    expect(out().split('\n')[0]).toBe('query: depth 2; graphql-js runs it (Person.contactDetails: an abstract type)');
  });

  it('--plan prints the steps of an operation graphql-js runs too: a connection read two ways, the members of a union', async () => {
    const { io, out } = captureIo();
    const query = '{ people(first: 1) { contactDetails { ... on EmailContact { email } } } posts(first: 2) { commentsConnection(first: 3) { totalCount edges { node { comment } } } } }';
    expect(await runExplainCli(['--config', DEMO_CONFIG, '--plan', query], {}, io)).toBe(0);
    expect(out().split('\n\n')[0]).toBe(
      [
        'query: depth 4; graphql-js runs it (Person.contactDetails: an abstract type)',
        '  people  Query.people',
        "    ↳ find on people; selection's projection { _id: 1, contactDetails: 1 }; est. 1 round trip, ≤ 1 document",
        "    contactDetails  Person.contactDetails, embedded (declared: embedded): read from its parent's contactDetails, no command",
        '      email  EmailContact.email (on EmailContact)',
        '  posts  Query.posts',
        "    ↳ find on posts; selection's projection { _id: 1 }; est. 1 round trip, ≤ 2 documents",
        '    commentsConnection  Post.commentsConnection, join (declared: join)',
        "      ↳ aggregate on comments: $match postId $in keys, $group by it, $count, and aggregate on comments: 4 per parent by postId, sorted -createdAt,-_id; batch ref:comments|bounded; selection's projection { _id: 1, comment: 1 }; est. 1 round trip, ≤ 10 documents",
        '      totalCount  CommentConnection.totalCount',
        '      edges  CommentConnection.edges',
        '        node  CommentEdge.node',
        '          comment  Comment.comment',
      ].join('\n'),
    );
  });

  it('--plan runs a mutation and a hand-written root field from the tree, one root field after the other', async () => {
    const { io, out } = captureIo();
    const mutation = 'mutation { renameAuthor(id: "6955b9000800000000000001", firstName: "A", lastName: "B") { name } addComment(postId: "6955b9000800000000000001", author: "a", comment: "c") { author } }';
    expect(await runExplainCli(['--config', DEMO_CONFIG, '--plan', mutation], {}, io)).toBe(0);
    expect(out().split('\n').slice(0, 7)).toEqual([
      'mutation: depth 1; docjoin runs it level by level from this tree',
      '  renameAuthor  Mutation.renameAuthor, hand-written resolver',
      '    ↳ its write unit, then a read back: findOne on what its resolver reads; selection\'s projection { _id: 1, name: 1 }; est. 4 round trips, ≤ 1 document',
      '    name  stored value, read as graphql-js reads it (an object from a hand-written resolver)',
      '  addComment  Mutation.addComment, hand-written resolver',
      '    ↳ its write unit, then a read back: findOne on what its resolver reads; selection\'s projection { _id: 1, author: 1 }; est. 4 round trips, ≤ 3 documents',
      '    author  stored value, read as graphql-js reads it (an object from a hand-written resolver)',
    ]);
  });

  it('a mutation: its write unit\'s estimate per mutation field, included in its row and the headline', async () => {
    const { io, out, err } = captureIo();
    const code = await runExplainCli(['--config', DEMO_CONFIG, 'mutation Rename { renameAuthor(id: "6955b9000800000000000001", firstName: "Ada", lastName: "Lovelace") { name books { name } } }'], {}, io);
    expect(err()).toBe('');
    expect(code).toBe(0);
    expect(out()).toBe(
      [
        // 3 writes + 1 read back + 1 join; documents: the author and up to 20 books.
        'mutation Rename: estimated before execution 5 round trips, at most 21 documents, depth 2',
        'within the limits (50 round trips, 100,000 documents, depth 10, 500,000 response objects)',
        'response: up to 21 objects, about 555 bytes as JSON',
        '',
        '  field                   strategy            est. round trips   other strategies (whole operation)',
        '  Mutation.renameAuthor   write + read back   4',
        '    Author.books          join                1                  lookup → 5 round trips (±0)',
        '',
        '  est. round trips: what the field itself adds to the estimate (the fields below it are their own rows).',
        '  Mutation.renameAuthor writes: 3 round trips = 2 writes (authors, books) + commit, then the read back.',
        '  Writes are estimated for one attempt, with its commit (a server without transactions sends one fewer); a transaction',
        '  retried after a conflict sends them again (extensions.cost.writes.attempts).',
        '',
      ].join('\n'),
    );
  });

  it('aliased mutations count each time; checks (reads) are listed, and reads a transaction saves', async () => {
    const { io, out } = captureIo();
    const post = '6955b9000800000000000001';
    const comments = [1, 2, 3].map((n) => `c${n}: addComment(postId: "${post}", author: "a", comment: "${n}") { id }`).join(' ');
    expect(await runExplainCli(['--config', DEMO_CONFIG, `mutation { ${comments} }`], { DOCJOIN_MAX_ROUND_TRIPS: '11' }, io)).toBe(0);
    expect(out().split('\n').slice(0, 2)).toEqual([
      'mutation (anonymous): estimated before execution 12 round trips, at most 9 documents, depth 1',
      'over a limit: 12 round trips > 11 (set by DOCJOIN_MAX_ROUND_TRIPS in the environment); the server rejects it with COST_LIMIT_EXCEEDED before sending anything',
    ]);
    // In a transaction the post's update proves the post exists: no read.
    expect(out()).toContain('  Mutation.addComment ×3 writes: 3 round trips each = 2 writes (comments, posts) + commit, then the read back.\n');
    const logged = captureIo();
    expect(await runExplainCli(['--config', DEMO_CONFIG, 'mutation { logMessage(ipaddr: "10.0.0.1", message: "m") { id } }'], {}, logged.io)).toBe(0);
    expect(logged.out()).toContain('  Mutation.logMessage writes: 4 round trips = 1 read + 2 writes (logMessages, hosts) + commit, then the read back.\n');
  });

  it('estimates documents with DOCJOIN_ASSUMED_LIST_SIZE, as the server does', async () => {
    const { io, out } = captureIo();
    expect(await runExplainCli(['--config', DEMO_CONFIG, '{ books(first: 50) { name publisher { name } authors { name countOfBooks } } }'], { DOCJOIN_ASSUMED_LIST_SIZE: '5' }, io)).toBe(0);
    // 50 books + 50 publishers + 50 × 5 authors (20 each by default: 1,100).
    expect(out().split('\n')[0]).toBe('query (anonymous): estimated before execution 3 round trips, at most 350 documents, depth 2');
  });

  it('applies --strategy and says when an operation is over a configured limit', async () => {
    const { io, out } = captureIo();
    const code = await runExplainCli(['--config', DEMO_CONFIG, '{ books(first: 50) { name authors { name } } }', '--strategy', 'Book.authors=join'], { DOCJOIN_MAX_ROUND_TRIPS: '1' }, io);
    expect(code).toBe(0);
    expect(out()).toContain(
      'over a limit: 2 round trips > 1 (set by DOCJOIN_MAX_ROUND_TRIPS in the environment); the server rejects it with COST_LIMIT_EXCEEDED before sending anything',
    );
    expect(out()).toContain('    Book.authors   join (--strategy)   1                  snapshot → 1 round trip (−1)');
  });

  it('reads --file and takes fragments it spreads from the files next to it, as codegen does', async () => {
    const { io, out, err } = captureIo();
    const code = await runExplainCli(['--config', DEMO_CONFIG, '--file', join(DEMO_DIR, 'operations/books-with-authors.graphql'), '--variables', '{"first": 10}'], {}, io);
    expect(err()).toBe('');
    expect(code).toBe(0);
    expect(out().split('\n')[0]).toBe('query BooksWithAuthors: estimated before execution 2 round trips, at most 20 documents, depth 2');
  });

  it('--help prints the usage on stdout', async () => {
    const { io, out } = captureIo();
    expect(await runExplainCli(['--config', DEMO_CONFIG, '--help'], {}, io)).toBe(0);
    expect(out()).toBe(`${EXPLAIN_USAGE}\n`);
  });

  const folder = mkdtempSync(join(tmpdir(), 'docjoin-explain-'));
  const twoOperations = join(folder, 'two.graphql');
  writeFileSync(twoOperations, 'query A { posts { title } }\nquery B { hosts { name } }\n');

  it.each([
    [['{ books { nme } }'], 'explain: Cannot query field "nme" on type "Book". Did you mean "name"? (line 1, column 11)'],
    [['{ books { name }'], 'explain: Syntax Error: Expected Name, found <EOF>. (line 1, column 17)'],
    [['{ books { name } }', '--strategy', 'Book.name=join'], 'explain: --strategy: Book.name is not a relation: only a relation field is read by a strategy. Fields with a choice of strategy: Person.tasks=join|lookup, Holding.stock=join|lookup, Task.owner=join|lookup, Post.recentComments=embedded|join|lookup, Post.comments=join|lookup, Comment.post=join|lookup, Publisher.books=join|lookup, Book.publisher=join|lookup, Book.authors=join|snapshot|lookup, Author.books=join|lookup, Product.parts=join|snapshot|lookup, Host.recentLogs=embedded|join|lookup, Host.logs=join|lookup, LogMessage.host=join|snapshot|lookup'],
    [['query Q($first: Int) { books(first: $first) { name } }', '--variables', '{"first": "ten"}'], 'explain: --variables: Variable "$first" got invalid value "ten"; Int cannot represent non-integer value: "ten" (line 1, column 9)'],
    [['--file', twoOperations], 'explain: the document holds several operations; choose one with --operation (A, B)'],
    [['--file', twoOperations, '--operation', 'C'], 'explain: no operation named "C" (the document has A, B)'],
    [['--file', join(folder, 'missing.graphql')], `explain: cannot read --file ${join(folder, 'missing.graphql')} (ENOENT)`],
    [['{ books { name } }', '--bogus'], 'explain: unknown option --bogus (try --help)'],
    [['subscription { __typename }'], 'explain: docjoin serves queries and mutations; a subscription is not supported'],
  ])('%j exits 2 with one line on stderr', async (argv, line) => {
    const { io, out, err } = captureIo();
    expect(await runExplainCli(['--config', DEMO_CONFIG, ...argv], {}, io)).toBe(2);
    expect(err()).toBe(`${line}\n`);
    expect(out()).toBe('');
  });
});

describe('the limits line names where each limit was set, as the server does', () => {
  const project = mkdtempSync(join(tmpdir(), 'docjoin-explain-limits-'));
  writeFileSync(join(project, 'schema.graphql'), 'type Query { users: [User!]! @list }\ntype User @collection(name: "users") { id: ID! name: String! team: Team @join(localField: "teamId") }\ntype Team @collection(name: "teams") { id: ID! name: String! }\n');
  const explain = async (limits: object, env: Record<string, string> = {}) => {
    writeFileSync(join(project, 'docjoin.config.json'), JSON.stringify({ schema: 'schema.graphql', server: { limits } }));
    const { io, out, err } = captureIo();
    expect(await runExplainCli(['--config', join(project, 'docjoin.config.json'), '{ users { name team { name } } }'], env, io)).toBe(0);
    expect(err()).toBe('');
    return out().split('\n')[1];
  };

  it('a limit of the config file by its key, one of the environment by its variable', async () => {
    expect(await explain({ maxDepth: 1 })).toBe("over a limit: 2 levels > 1 (set by server.limits.maxDepth in the project's config); the server rejects it with COST_LIMIT_EXCEEDED before sending anything");
    expect(await explain({ maxDepth: 5 }, { DOCJOIN_MAX_DEPTH: '1' })).toBe('over a limit: 2 levels > 1 (set by DOCJOIN_MAX_DEPTH in the environment); the server rejects it with COST_LIMIT_EXCEEDED before sending anything');
  });

  it('says which limits are off', async () => {
    expect(await explain({}, { DOCJOIN_MAX_ROUND_TRIPS: 'none', DOCJOIN_MAX_RESPONSE_NODES: 'none' })).toBe('within the limits (no limit on round trips, 100,000 documents, depth 10, no limit on response objects)');
  });
});
