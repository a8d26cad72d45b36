import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runExplainCli } from '../../../../src/cli/explain/run-explain';
import { DEMO_CONFIG } from '../../../support/demo-project';
import { captureIo } from '../capture-io';

/** `docjoin explain --role`: the plan, its refusal and its row filters as the access rules make them for one viewer. */
const SHOP_CONFIG = resolve(__dirname, '../../../../examples/shop/docjoin.config.ts');
const ADA = '67c000000000000000000001';
const ORDERS = '{ orders(first: 3) { total customer { name email } lines { quantity product { name } } } }';

async function explain(args: readonly string[]): Promise<{ code: number; out: string; err: string }> {
  const { io, out, err } = captureIo();
  const code = await runExplainCli(args, {}, io);
  return { code, out: out(), err: err() };
}

describe('docjoin explain --role', () => {
  it('plans for no viewer without --role (as before the access rules); --role refuses what the server refuses that role, before anything is sent: exit 1', async () => {
    const unrestricted = await explain(['--config', SHOP_CONFIG, ORDERS]);
    expect(unrestricted.code).toBe(0);
    expect(unrestricted.out).not.toContain('access');
    const { code, out, err } = await explain(['--config', SHOP_CONFIG, '--role', 'anonymous', ORDERS]);
    expect(err).toBe('');
    expect(code).toBe(1);
    expect(out.split('\n').slice(3, 5)).toEqual(['access: refused for role "anonymous": role "anonymous" may not read Order; the server answers 403 FORBIDDEN before sending anything', '']);
    const viaOnly = await explain(['--config', SHOP_CONFIG, '--role', 'customer', '--claims', JSON.stringify({ sub: ADA }), 'mutation { createOrder(input: { status: PLACED, placedAt: "2026-01-01T00:00:00Z", total: 1, customer: "' + ADA + '", lines: [] }) { id } }']);
    expect(viaOnly.err).toBe('');
    expect(viaOnly.code).toBe(1);
    expect(viaOnly.out).toContain('access: refused for role "customer" (claims: sub): role "customer" may create Order only through placeOrder; the server answers 403 FORBIDDEN before sending anything\n');
  });

  it('names, per type read, the rows the viewer reads, with the values the claims give', async () => {
    const { code, out } = await explain(['--config', SHOP_CONFIG, '--role', 'customer', '--claims', JSON.stringify({ sub: ADA }), ORDERS]);
    expect(code).toBe(0);
    expect(out.split('\n').slice(3, 8)).toEqual([
      'access as role "customer" (claims: sub): the rows it reads of each type (a filter inside MongoDB on every command that reads the type; its copies checked alike)',
      `  Order: where customer = claim sub (ObjectId("${ADA}"))`,
      `  Customer: where id = claim sub (ObjectId("${ADA}"))`,
      '  every row of Product',
      '',
    ]);
  });

  it('prices an aggregate as the server runs it for the role: a counter of everyone\'s rows answers only a role reading them all', async () => {
    const query = '{ customers(first: 2) { name ordersAggregate { count } } }';
    const customer = await explain(['--config', SHOP_CONFIG, '--role', 'customer', query]);
    expect(customer.out.split('\n')[0]).toBe('query (anonymous): estimated before execution 2 round trips, at most 42 documents, depth 2');
    expect(customer.out).toContain('    Customer.ordersAggregate   aggregate   1                  aggregate on orders: $match customer.id $in keys, $group by customer.id\n');
    const admin = await explain(['--config', SHOP_CONFIG, '--role', 'admin', query]);
    expect(admin.out.split('\n')[0]).toBe('query (anonymous): estimated before execution 1 round trip, at most 2 documents, depth 2');
    expect(admin.out).toContain("    Customer.ordersAggregate   aggregate   0                  read from its parent's counter Customer.orderCount, no command\n");
  });

  it('without claims, names the conditions; a claim that cannot be the stored value matches no row', async () => {
    const symbolic = await explain(['--config', SHOP_CONFIG, '--role', 'customer', ORDERS]);
    expect(symbolic.out.split('\n').slice(4, 6)).toEqual(['  Order: where customer = claim sub', '  Customer: where id = claim sub']);
    const unusable = await explain(['--config', SHOP_CONFIG, '--role', 'customer', '--claims', '{"sub": "not-an-id"}', ORDERS]);
    expect(unusable.out.split('\n')[4]).toBe('  Order: where customer = claim sub (the viewer has no such claim that could match: no rows)');
  });

  it('--plan ends each read of a filtered type with its rows: the root find, and the join a snapshot falls back to', async () => {
    const { code, out } = await explain(['--config', SHOP_CONFIG, '--plan', '--role', 'customer', ORDERS]);
    expect(code).toBe(0);
    const reads = out.split('\n').filter((line) => line.includes('↳'));
    expect(reads).toEqual([
      "    ↳ find on orders; selection's projection { _id: 1, customer.id: 1, lines._id: 1, lines.product: 1, lines.quantity: 1, total: 1 }; est. 1 round trip, ≤ 3 documents; rows where customer = claim sub",
      "      ↳ find on customers: _id $in keys; batch key:customers|_id; selection's projection { _id: 1, email: 1, name: 1 }; est. 1 round trip, ≤ 3 documents; rows where id = claim sub",
    ]);
    // Products are read in full: the copies in the lines need no condition.
    expect(out).toContain('product  OrderLine.product, snapshot (declared: join, snapshot): read from the copy in its parent\'s product, no command [');
  });

  it('plans the joins a role reads copies by, with no other strategy open to it; a role reading every row keeps the copies', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'docjoin-explain-access-'));
    const schema = join(directory, 'schema.graphql');
    writeFileSync(
      schema,
      /* GraphQL */ `
        type Query {
          posts(first: Int = 20): [Post!]! @list(sort: "-createdAt")
        }
        type Post @collection(name: "posts") @access(roles: ["member", "admin"], allow: [READ]) {
          id: ID!
          title: String!
          createdAt: String!
          comments: [Comment!]! @embedded @join(collection: "comments", localField: "_id", foreignField: "postId", sort: "-at", limit: 3) @read(strategy: EMBEDDED)
          author: Author @join(localField: "authorId")
        }
        type Author @collection(name: "authors") @access(roles: ["admin"], allow: [READ]) {
          id: ID!
          name: String!
        }
        type Comment
          @collection(name: "comments")
          @access(roles: ["admin"], allow: [READ])
          @access(roles: ["member"], allow: [READ], where: [{ field: "by", claim: "sub" }]) {
          id: ID!
          text: String!
          by: String!
          at: String!
        }
      `,
    );
    const config = join(directory, 'docjoin.config.json');
    writeFileSync(config, JSON.stringify({ schema: 'schema.graphql' }));
    const query = '{ posts(first: 2) { title comments { text } } }';
    const member = await explain(['--config', config, '--plan', '--role', 'member', query]);
    expect(member.err).toBe('');
    expect(member.code).toBe(0);
    const memberLines = member.out.split('\n');
    expect(memberLines).toContain("    comments  Post.comments, join (declared: embedded, join; the access rules of the viewer's role read it so)");
    expect(memberLines).toContain('    Post.comments   join (access rules)   1');
    // As on the server, the role's join wins over a strategy the request asks for.
    const asked = await explain(['--config', config, '--role', 'member', '--strategy', 'Post.comments=embedded', query]);
    expect(asked.out.split('\n')).toContain('    Post.comments   join (access rules)   1');
    expect(memberLines).toContain('  Comment: where by = claim sub');
    // A type the role may not read at all: not filtered, refused at each field that reaches it.
    const authors = await explain(['--config', config, '--plan', '--role', 'member', '{ posts(first: 2) { title author { name } } }']);
    expect(authors.code).toBe(0);
    expect(authors.out.split('\n')).toEqual(
      expect.arrayContaining([
        "      ↳ find on authors: _id $in keys; batch key:authors|_id; selection's projection { _id: 1, name: 1 }; est. 1 round trip, ≤ 2 documents; no rows: the role may not read Author (null with FORBIDDEN here)",
        'access as role "member": the rows it reads of each type (a filter inside MongoDB on every command that reads the type; its copies checked alike)',
        '  Author: none; a field that reaches it answers null with FORBIDDEN',
        '  every row of Post',
      ]),
    );
    const admin = await explain(['--config', config, '--role', 'admin', query]);
    expect(admin.code).toBe(0);
    expect(admin.out.split('\n')).toContain('    Post.comments   embedded    0                  join → 2 round trips (+1), lookup → 1 round trip (±0)');
    expect(admin.out).toContain('access as role "admin": every row of what it reads');
  });

  it('on a project without @access rules, follows its introspection roles (server.introspection)', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'docjoin-explain-introspection-'));
    writeFileSync(join(directory, 'schema.graphql'), 'type Query { notes(first: Int = 20): [Note!]! @list(sort: "title") }\ntype Note @collection(name: "notes") { id: ID!\n title: String! }\n');
    const config = join(directory, 'docjoin.config.json');
    writeFileSync(config, JSON.stringify({ schema: 'schema.graphql', server: { introspection: ['auditor'] } }));
    const query = '{ __schema { queryType { name } } }';
    expect(await explain(['--config', config, '--role', 'auditor', query])).toMatchObject({ code: 0, err: '' });
    const anonymous = await explain(['--config', config, '--role', 'anonymous', query]);
    expect(anonymous.code).toBe(1);
    expect(anonymous.out).toContain('access: refused for role "anonymous": introspection is not allowed for role "anonymous"; the server answers 403 FORBIDDEN before sending anything\n');
    expect(await explain(['--config', config, '--role', 'reader', query])).toEqual({ code: 2, out: '', err: 'explain: --role: no @access rule names role "reader"; the roles are anonymous, auditor\n' });
    // The anonymous role is read as the server reads it: a blank one is refused, as at the server's start.
    writeFileSync(config, JSON.stringify({ schema: 'schema.graphql', auth: { anonymousRole: ' ' }, server: { introspection: ['auditor'] } }));
    expect(await explain(['--config', config, '--role', 'auditor', query])).toEqual({ code: 2, out: '', err: 'explain: option auth.anonymousRole must be a non-empty string, got " "\n' });
  });

  it('refuses a role no rule names, and --role on a project without rules, in one line: exit 2', async () => {
    const unknown = await explain(['--config', SHOP_CONFIG, '--role', 'cashier', ORDERS]);
    expect(unknown).toEqual({ code: 2, out: '', err: 'explain: --role: no @access rule names role "cashier"; the roles are admin, anonymous, customer\n' });
    const ruleless = await explain(['--config', DEMO_CONFIG, '--role', 'admin', '{ books(first: 1) { name } }']);
    expect(ruleless).toEqual({ code: 2, out: '', err: 'explain: --role: the project has no @access rule, so every viewer reads everything; leave --role out\n' });
  });

  it('--run runs as the viewer and lists each command with the filter it selected by: the access filter is in each read of orders', async () => {
    const { code, out } = await explain(['--config', SHOP_CONFIG, '--run', '--role', 'customer', '--claims', JSON.stringify({ sub: ADA }), ORDERS]);
    expect(code).toBe(0);
    const lines = out.split('\n');
    const listed = lines.indexOf('commands sent as role "customer", each with the filter it selected by (values shown as "?"):');
    expect(listed).toBeGreaterThan(0);
    expect(lines.slice(listed + 1, listed + 4)).toEqual(['  find on orders {"customer.id":"?"} → 1 document', '  find on customers {"$and":[{"_id":"?"},{"_id":{"$in":"?"}}]} → 1 document', '']);
  });

  it("--run lists a lookup's own selection under its command: the access filter inside the $lookup's pipeline", async () => {
    const query = `{ customer(id: "${ADA}") { name orders(first: 2) { total } } }`;
    const { code, out } = await explain(['--config', SHOP_CONFIG, '--run', '--role', 'customer', '--claims', JSON.stringify({ sub: ADA }), '--strategy', 'Customer.orders=lookup', query]);
    expect(code).toBe(0);
    const lines = out.split('\n');
    const listed = lines.indexOf('commands sent as role "customer", each with the filter it selected by (values shown as "?"):');
    expect(listed).toBeGreaterThan(0);
    expect(lines.slice(listed + 1)).toEqual([
      '  aggregate on customers {"$and":[{"_id":"?"},{"_id":"?"}]} → 1 document',
      // Joined by the customer's key, then the role's row filter, then the page's own (a key that is set).
      '    $lookup on orders {"$and":[{"customer.id":"?"},{"customer.id":"?"},{"customer.id":{"$type":"?"}}]}',
      '',
    ]);
  });

  it('--run without --claims runs as a viewer with none: each condition matches no row, and says so', async () => {
    const { code, out } = await explain(['--config', SHOP_CONFIG, '--run', '--role', 'customer', ORDERS]);
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[4]).toBe('  Order: where customer = claim sub (the viewer has no such claim that could match: no rows)');
    expect(lines.slice(-3)).toEqual(['commands sent as role "customer", each with the filter it selected by (values shown as "?"):', '  find on orders {"_id":{"$in":"?"}} → 0 documents', '']);
  });

  it('names what each generated mutation writes for the role: the rows an update touches, or any row', async () => {
    const update = `mutation { updateCustomer(id: "${ADA}", input: { name: "Ada" }) { name } }`;
    const customer = await explain(['--config', SHOP_CONFIG, '--role', 'customer', '--claims', JSON.stringify({ sub: ADA }), update]);
    expect(customer.code).toBe(0);
    expect(customer.out).toContain(`\n  Mutation.updateCustomer updates only rows of Customer where id = claim sub (ObjectId("${ADA}")); another row is NOT_FOUND\n`);
    const admin = await explain(['--config', SHOP_CONFIG, '--role', 'admin', 'mutation { deleteProduct(id: "67c000000000000000000001") }']);
    expect(admin.out).toContain('\naccess as role "admin", what it writes:\n  Mutation.deleteProduct deletes any row of Product\n');
  });
});
