// scratch: start embedded mongo already running at argv[2], seed if asked, serve a peer, print port
import { MongoClient } from 'mongodb';
import path from 'node:path';
import { loadProject } from 'docjoin';
const [uri, peer, doSeed] = process.argv.slice(2);
async function main() {
  if (doSeed === 'seed') {
    const cfg = path.resolve(__dirname, '../../examples/demo/docjoin.config.ts');
    const project = await loadProject({ cwd: path.dirname(cfg), configPath: cfg });
    const c = await MongoClient.connect(uri!);
    await project.config.seed!(c.db('docjoin'), { scale: 1, onProgress: () => undefined });
    await c.close();
    console.log('seeded');
    return;
  }
  const mod = require(`../peers/${peer}-server`);
  const p = await mod.start({ mongoUri: uri, dbName: 'docjoin' });
  console.log('PORT', p.port);
  process.on('SIGINT', async () => { await p.stop(); process.exit(0); });
}
main();
