import type { ObjectId } from 'mongodb';
import type { CommandCost } from '../../../src/gateway';
import { targetingOf, type ShardKeys } from '../../../src/sharding/shard-targeting';
import { startDemoGateway, type DemoGateway } from '../gateway/support/demo-gateway';
import { resolve } from 'node:path';
import { runExplainCli } from '../../../src/cli/explain/run-explain';
import { captureIo } from '../../unit/cli/capture-io';

const SHARDED_CONFIG = resolve(__dirname, '../../support/sharded-demo-project/docjoin.config.ts');

/**
 * The simulation behind the README's "Running docjoin against a sharded cluster": a small demo workload
 * (reads at every depth, a comment added, a host renamed) run through a gateway, each command it sent
 * (the `x-docjoin-cost: commands` view) routed as a cluster would with these shard keys.
 */
const SHARD_KEYS: ShardKeys = { logMessages: { 'host.id': 'hashed' }, comments: { postId: 1, _id: 1 }, books: { _id: 'hashed' } };

let demo: DemoGateway;
beforeAll(async () => {
  demo = await startDemoGateway({ scale: 0.1 });
}, 120_000);
afterAll(async () => {
  await demo?.stop();
});

async function commandsOf(query: string, variables?: Record<string, unknown>): Promise<CommandCost[]> {
  const result = await demo.gateway.execute({ query, ...(variables && { variables }) }, { costHeader: 'commands' });
  expect(result.errors).toBeUndefined();
  return result.cost!.commands!;
}

const routed = (commands: readonly CommandCost[]) => commands.map((command) => `${command.command} ${command.collection} → ${targetingOf(command, SHARD_KEYS)}`);

it('routes each command of a small workload as the shard keys allow', async () => {
  const db = demo.client.db(demo.dbName);
  const post = (await db.collection('posts').findOne({}, { projection: { _id: 1 }, sort: { _id: 1 } }))!;
  const host = (await db.collection('hosts').findOne({}, { projection: { _id: 1, ipaddr: 1 }, sort: { _id: 1 } }))!;
  const workload = [
    await commandsOf('{ posts(first: 5) { title recentComments { author } comments(first: 3) { comment } } }'),
    await commandsOf('{ books(first: 10) { name authors { name } publisher { name } } }'),
    await commandsOf('{ hosts(first: 2) { name logs(first: 5) { message } } }'),
    await commandsOf('mutation($postId: ID!) { addComment(postId: $postId, author: "ann", comment: "hi") { comment } }', { postId: (post._id as ObjectId).toHexString() }),
    await commandsOf('mutation($id: ID!, $ip: String!) { updateHost(id: $id, name: "renamed", ipaddr: $ip) { name } }', { id: (host._id as ObjectId).toHexString(), ip: String(host.ipaddr) }),
  ];
  expect(workload.map(routed)).toEqual([
    // Posts are not sharded; their comments are read by postId, the shard key's first field: the shards holding those posts.
    ['find posts → unsharded', 'aggregate comments → targeted'],
    // Books sharded by a hashed _id: a page in _id order asks every shard; the authors' and publisher's collections are not sharded.
    ['find books → broadcast', 'find publishers → unsharded'],
    // Log messages by their host's id: the two hosts' shards.
    ['find hosts → unsharded', 'aggregate logMessages → targeted'],
    // The comment goes to its post's shard; the post's counter and recent comments are not sharded.
    ['insert comments → one shard', 'update posts → unsharded', 'commitTransaction $cmd → not routed'],
    // The host's copies live with the host's messages: one shard.
    ['update hosts → unsharded', 'update logMessages → one shard', 'commitTransaction $cmd → not routed', 'find hosts → unsharded'],
  ]);
});

/** What `explain --run` on the sharded demo prints from its routing section on. */
async function explainedRouting(operation: string, ...flags: string[]): Promise<string> {
  const { io, out, err } = captureIo();
  const code = await runExplainCli(['--config', SHARDED_CONFIG, operation, ...flags, '--run', '--seed-scale', '0.05'], {}, io);
  expect(err()).not.toContain('error');
  expect(code).toBe(0);
  const printed = out();
  return printed.slice(printed.indexOf('on a sharded cluster'));
}

it('explain --run shows how a cluster would route each command, from the config\'s mongodb.shardKeys', async () => {
  // The two hosts' messages: one branch per host of one batch, on the shards owning those hosts.
  expect(await explainedRouting('{ hosts(first: 2) { name logs(first: 5) { message } } books(first: 3) { name } }')).toBe(
    [
      'on a sharded cluster (mongodb.shardKeys), the commands would go to:',
      '  command     collection    filter                                      routed to',
      '  find        hosts         {}                                          unsharded',
      '  find        books         {}                                          broadcast',
      '  aggregate   logMessages   {"$or":[{"host.id":"?"},{"host.id":"?"}]}   targeted',
      '  1 unsharded, 1 broadcast, 1 targeted',
      '',
    ].join('\n'),
  );
}, 60_000);

it('explain --run routes each $lookup under its command, per parent: by the shard key to its shard, by another key to every shard', async () => {
  const operation = '{ hosts(first: 2) { name logs(first: 5) { message } } authors(first: 2) { name books { name publisher { name books(first: 2) { name } } } } }';
  expect(await explainedRouting(operation, '--strategy', 'Host.logs=lookup,Author.books=lookup,Publisher.books=lookup')).toBe(
    [
      'on a sharded cluster (mongodb.shardKeys), the commands would go to:',
      '  command     collection    filter                                                         routed to',
      '  aggregate   hosts         {}                                                             unsharded',
      '    $lookup   logMessages   {"$and":[{"host.id":"?"},{"host.id":{"$type":"?"}}]}           one shard per parent',
      '  aggregate   authors       {}                                                             unsharded',
      '    $lookup   books         {"_id":"?"}                                                    one shard per parent',
      '  aggregate   publishers    {"_id":{"$in":"?"}}                                            unsharded',
      // Books are sharded by their _id: a publisher's books, found by publisherId, are on any shard.
      '    $lookup   books         {"$and":[{"publisherId":"?"},{"publisherId":{"$type":"?"}}]}   broadcast per parent',
      '  3 unsharded, 2 one shard per parent, 1 broadcast per parent',
      '',
    ].join('\n'),
  );
}, 60_000);
