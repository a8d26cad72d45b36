import path from 'node:path';
import inspector from 'node:inspector/promises';
import fs from 'node:fs';
const root = process.env.ROOT ?? '/work/main';
async function main() {
  const uri = process.argv[2]!;
  const peer = require(path.join(root, 'bench/peers', process.env.PEER ?? 'docjoin-server'));
  const started = await (process.env.FEATURES_OFF ? peer.startWithFeaturesOff : peer.start)({ mongoUri: uri, dbName: 'docjoin' });
  console.log('PORT', started.port);
  let session: inspector.Session | undefined;
  if (process.env.ALLOC) {
    session = new inspector.Session(); session.connect();
    process.on('SIGUSR2', async () => {
      await session!.post('HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
      console.log('sampling');
    });
  }
  process.on('SIGINT', async () => {
    if (session) { const { profile } = await session.post('HeapProfiler.stopSampling'); fs.writeFileSync(process.env.ALLOC!, JSON.stringify(profile)); }
    await started.stop(); process.exit(0);
  });
}
main();
