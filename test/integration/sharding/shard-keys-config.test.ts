import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runExplainCli } from '../../../src/cli/explain/run-explain';
import { captureIo } from '../../unit/cli/capture-io';

/**
 * `mongodb.shardKeys` that cannot describe the cluster is refused in one line, exit 2: a key named after
 * a type rather than its collection (every command of it would show as unsharded) and a key hashing two
 * fields (which sh.shardCollection refuses).
 */
const DEMO = resolve(__dirname, '../../..');
let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'docjoin-shard-keys-'));
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

async function explainWith(name: string, shardKeys: object): Promise<{ code: number; err: string }> {
  const config = join(folder, `${name}.config.ts`);
  writeFileSync(config, `import demo from ${JSON.stringify(join(DEMO, 'docjoin.config'))};\nexport default { ...demo, schema: ${JSON.stringify(join(DEMO, 'schema'))}, mongodb: { ...demo.mongodb, shardKeys: ${JSON.stringify(shardKeys)} } };\n`);
  const { io, err } = captureIo();
  const code = await runExplainCli(['--config', config, '{ books(first: 2) { name } }'], {}, io);
  return { code, err: err() };
}

it('refuses a shard key named after a type instead of its collection, naming the collection', async () => {
  expect(await explainWith('type-name', { LogMessage: { 'host.id': 'hashed' } })).toEqual({
    code: 2,
    err: 'explain: mongodb.shardKeys.LogMessage: the schema has no collection "LogMessage" (type LogMessage is stored in "logMessages"); name each shard key by its collection\n',
  });
});

it('refuses a shard key hashing two fields', async () => {
  const { code, err } = await explainWith('two-hashed', { books: { _id: 'hashed', name: 'hashed' } });
  expect([code, err]).toEqual([2, 'explain: two-hashed.config.ts: mongodb.shardKeys.books has 2 hashed fields; a shard key hashes at most one, e.g. { logMessages: { "host.id": "hashed" }, comments: { postId: 1, _id: 1 } }\n']);
});

it('refuses a shard key field no type over the collection stores, naming what its documents hold', async () => {
  const { code, err } = await explainWith('field-name', { logMessages: { hostId: 'hashed' } });
  expect(code).toBe(2);
  expect(err).toMatch(/^explain: mongodb\.shardKeys\.logMessages: "hostId" is no path the schema stores in logMessages \(its documents hold [^)]*\bhost\.id\b[^)]*\); name the stored path of each shard key field, as in the database\n$/);
  expect(await explainWith('stored-path', { logMessages: { 'host.id': 'hashed' }, books: { _id: 1 } })).toEqual({ code: 0, err: '' });
});

it('refuses a shard key field path that is empty or has a $ part, as sh.shardCollection does', async () => {
  for (const [index, path] of ['', '$id', 'a..b'].entries()) {
    expect(await explainWith(`bad-path-${index}`, { books: { [path]: 1 } })).toEqual({
      code: 2,
      err: `explain: mongodb.shardKeys.books: "${path}" is no field path (a part is empty or starts with $); name the stored path of each shard key field\n`,
    });
  }
});

it('takes the key a reverse join reads another collection by as a path that collection holds, though no type of it declares a field there', async () => {
  writeFileSync(
    join(folder, 'reverse.graphql'),
    'type Query { posts: [Post!]! @list }\ntype Post @collection(name: "posts") { id: ID! title: String! comments: [Comment!]! @join(localField: "_id", foreignField: "postId", sort: "-createdAt") }\ntype Comment @collection(name: "comments") { id: ID! text: String! createdAt: DateTime! }\n',
  );
  const explainReverse = async (name: string, shardKeys: object) => {
    const config = join(folder, `${name}.config.ts`);
    writeFileSync(config, `export default { schema: ${JSON.stringify(join(folder, 'reverse.graphql'))}, mongodb: { db: 'reverse', shardKeys: ${JSON.stringify(shardKeys)} } };\n`);
    const { io, err } = captureIo();
    return { code: await runExplainCli(['--config', config, '{ posts { title comments { text } } }'], {}, io), err: err() };
  };
  expect(await explainReverse('reverse-key', { comments: { postId: 1, _id: 1 } })).toEqual({ code: 0, err: '' });
  expect((await explainReverse('reverse-typo', { comments: { post: 1 } })).err).toMatch(/^explain: mongodb\.shardKeys\.comments: "post" is no path the schema stores in comments \(its documents hold _id, createdAt, postId, text\)/);
});
