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
  it('refuses for the anonymous role (the default) what the server refuses it, before anything is sent: exit 1', async () => {
    const { code, out, err } = await explain(['--config', SHOP_CONFIG, ORDERS]);
    expect(err).toBe('');
    expect(code).toBe(1);
    expect(out.split('\n').slice(3, 5)).toEqual(['access: refused for role "anonymous": role "anonymous" may not read Order; the server answers 403 FORBIDDEN before sending anything', '']);
  });

  it('names, per type read, the rows MongoDB filters its commands to, with the values the claims give', async () => {
    const { code, out } = await explain(['--config', SHOP_CONFIG, '--role', 'customer', '--claims', JSON.stringify({ sub: ADA }), ORDERS]);
    expect(code).toBe(0);
    expect(out.split('\n').slice(3, 8)).toEqual([
      'access as role "customer" (claims: sub): MongoDB filters every command that reads these types to the rows where',
      `  Order: customer = claim sub (ObjectId("${ADA}"))`,
      `  Customer: id = claim sub (ObjectId("${ADA}"))`,
      '  every row of Product',
      '',
    ]);
  });

  it('without claims, names the conditions; a claim that cannot be the stored value matches no row', async () => {
    const symbolic = await explain(['--config', SHOP_CONFIG, '--role', 'customer', ORDERS]);
    expect(symbolic.out.split('\n').slice(4, 6)).toEqual(['  Order: customer = claim sub', '  Customer: id = claim sub']);
    const unusable = await explain(['--config', SHOP_CONFIG, '--role', 'customer', '--claims', '{"sub": "not-an-id"}', ORDERS]);
    expect(unusable.out.split('\n')[4]).toBe('  Order: customer = claim sub (the viewer has no such claim that could match: no rows)');
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
    expect(memberLines).toContain('  Comment: by = claim sub');
    const admin = await explain(['--config', config, '--role', 'admin', query]);
    expect(admin.code).toBe(0);
    expect(admin.out.split('\n')).toContain('    Post.comments   embedded    0                  join → 2 round trips (+1), lookup → 1 round trip (±0)');
    expect(admin.out).toContain('access as role "admin": every row of what it reads');
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
});
