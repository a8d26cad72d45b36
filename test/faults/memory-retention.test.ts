import { connectMongo, type Gateway, type MongoClient } from 'docjoin';
import { demoProjectOptions } from '../support/demo-project';
import { mixedRequest, readDemoIds, type DemoIds } from './support/demo-workload';
import { report } from './support/fault-run';
import { startDemoStack, type DemoStack } from './support/demo-stack';
import { createCheckedGateway } from '../support/checked-gateway';

/**
 * What the gateway keeps after serving: rounds of the mixed load (16 clients, 150 requests each,
 * a tenth of them writes) against a gateway in this process, with a full garbage collection after
 * each round. The heap left after the collections must not grow (under 10% from the first round to
 * the last): anything a request leaves behind would add up here, where resident memory (the mixed-load
 * scenario's figure) also moves with how much garbage V8 lets pile up between collections.
 * Needs `node --expose-gc` (npm run test:faults runs jest with it).
 */
const ROUNDS = 8;

let stack: DemoStack;
let client: MongoClient;
let gateway: Gateway;
let ids: DemoIds;
beforeAll(async () => {
  stack = await startDemoStack();
  ids = await readDemoIds(stack.db);
  client = await connectMongo(stack.mongo.uri);
  gateway = await createCheckedGateway({ ...demoProjectOptions(), db: 'faults', mongoClient: client, listen: false, onWarning: () => undefined });
}, 180_000);
afterAll(async () => {
  await gateway?.stop();
  await client?.close();
  await stack?.stop();
});

it('keeps no more heap after each round of load than after the first', async () => {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run this scenario with node --expose-gc (npm run test:faults)');
  const heapAfterRounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    await Promise.all(
      Array.from({ length: 16 }, async (_, c) => {
        for (let n = 0; n < 150; n++) {
          const request = mixedRequest(ids, c + round * 100, n);
          const { errors } = await gateway.execute({ query: request.query, variables: { ...request.variables } });
          // A write that still conflicts after its retries is refused, as it should be; nothing else may fail.
          if (errors && !errors.every((error) => error.extensions?.code === 'WRITE_CONFLICT')) throw new Error(`${request.name}: ${JSON.stringify(errors)}`);
        }
      }),
    );
    gc();
    gc();
    heapAfterRounds.push(process.memoryUsage().heapUsed);
  }
  const mib = heapAfterRounds.map((bytes) => Math.round((bytes / 2 ** 20) * 10) / 10);
  // The first round warms caches (parsed documents, loaders' plans): the second is the baseline.
  const growth = heapAfterRounds[ROUNDS - 1]! / heapAfterRounds[1]! - 1;
  report('memory retention', { requests: ROUNDS * 16 * 150, heapAfterEachRoundMiB: mib, growthPercent: Math.round(growth * 1000) / 10 });
  expect(growth).toBeLessThan(0.1);
}, 600_000);
