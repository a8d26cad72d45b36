import { MongoClient } from 'mongodb';
import { loadProject } from '/work/main/src';
async function main() {
  const project = await loadProject({ cwd: '/work/main', configPath: 'examples/demo/docjoin.config.ts' });
  const client = await MongoClient.connect(process.argv[2]!);
  await client.db('docjoin').dropDatabase();
  await project.config.seed!(client.db('docjoin'), { scale: 1, onProgress: () => undefined });
  const posts = await client.db('docjoin').collection('posts').find({}, { projection: { _id: 1 } }).toArray();
  require('fs').writeFileSync('/tmp/prof/posts.json', JSON.stringify(posts.slice(10).map((p) => p._id.toHexString())));
  await client.close();
}
main();
