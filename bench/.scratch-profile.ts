// scratch: not committed (dot file); in-process timing of embedded commands
import { deserialize, serialize, type Document } from 'bson';
import { Store } from '../src/embedded-mongo/storage/store';
import { dataCommands } from '../src/embedded-mongo/commands/data';
import { generateHostsLogMessages } from '../src/seed/generators/hosts-log-messages';

const store = new Store();
const table = dataCommands(store);
const ctx = { db: 'd', connectionId: 1 };
const { hosts, logMessages } = generateHostsLogMessages({ hosts: 100 });
const roundTrip = (d: Document) => deserialize(serialize(d), { promoteValues: false, promoteLongs: false, promoteBuffers: false });
const t0 = performance.now();
for (let i = 0; i < logMessages.length; i += 10000) {
  table.insert!({ insert: 'logMessages', documents: logMessages.slice(i, i + 10000).map(roundTrip), $db: 'd' }, ctx);
}
table.insert!({ insert: 'hosts', documents: hosts.map(roundTrip) }, ctx);
table.createIndexes!({ createIndexes: 'logMessages', indexes: [{ key: { 'host.id': 1, time: -1 }, name: 'host.id_1_time_-1' }] }, ctx);
console.log('seed ms', (performance.now() - t0).toFixed(0));
const ids = hosts.slice(0, 20).map((h) => h._id);
const pipeline = [
  { $match: { 'host.id': { $in: ids } } },
  { $sort: { time: -1, _id: -1 } },
  { $project: { _id: 1, 'host.id': 1, message: 1, time: 1 } },
  { $group: { _id: '$host.id', docs: { $topN: { n: 5, sortBy: { time: -1, _id: -1 }, output: '$$ROOT' } } } },
  { $unwind: '$docs' },
  { $replaceRoot: { newRoot: '$docs' } },
];
const mode = process.argv[2] ?? 'all';
function time(label: string, f: () => unknown, runs = 5) {
  f();
  const ts: number[] = [];
  let r: unknown;
  for (let i = 0; i < runs; i++) { const s = performance.now(); r = f(); ts.push(performance.now() - s); }
  ts.sort((a, b) => a - b);
  console.log(label.padEnd(50), ts[Math.floor(runs / 2)]!.toFixed(2), 'ms');
  return r;
}
for (let k = 1; k <= pipeline.length; k++) {
  if (mode !== 'all' && mode !== 'agg') break;
  const res = time(`agg first ${k} stages`, () => table.aggregate!({ aggregate: 'logMessages', pipeline: pipeline.slice(0, k), cursor: { batchSize: 100 } }, ctx)) as Document;
  if (k === pipeline.length) console.log(res.cursor.firstBatch.length, JSON.stringify(res.cursor.firstBatch[0]));
}
time('find sort _id limit 20', () => table.find!({ find: 'logMessages', filter: {}, sort: { _id: 1 }, limit: 20 }, ctx));
time('find host sort time limit 20', () => table.find!({ find: 'logMessages', filter: { 'host.id': ids[3] }, sort: { time: -1 }, limit: 20 }, ctx));
const someIds = logMessages.filter((_, i) => i % 100 === 7).map((m) => m._id);
time('find _id $in 1000', () => table.find!({ find: 'logMessages', filter: { _id: { $in: someIds } }, batchSize: 1000 }, ctx));
time('findOne _id', () => { for (let i = 0; i < 1000; i++) table.find!({ find: 'logMessages', filter: { _id: someIds[i % 1000] }, limit: 1, singleBatch: true }, ctx); });
