import { deserialize, serialize, type Document } from 'bson';
import { Store } from '../src/embedded-mongo/storage/store';
import { dataCommands } from '../src/embedded-mongo/commands/data';
import { generateHostsLogMessages } from '../src/seed/generators/hosts-log-messages';
import { encodeBsonDocument, decodeBsonDocument } from '../src/embedded-mongo/wire/bson-document';
const store = new Store();
const table = dataCommands(store);
const ctx = { db: 'd', connectionId: 1 };
const { hosts, logMessages } = generateHostsLogMessages({ hosts: 100 });
for (let i = 0; i < logMessages.length; i += 10000) table.insert!(decodeBsonDocument(serialize({ insert: 'logMessages', documents: logMessages.slice(i, i + 10000) })), ctx);
table.createIndexes!({ createIndexes: 'logMessages', indexes: [{ key: { 'host.id': 1, time: -1 }, name: 'x' }] }, ctx);
const pipeline = (ids: unknown[]) => [
  { $match: { 'host.id': { $in: ids } } }, { $sort: { time: -1, _id: -1 } }, { $project: { _id: 1, 'host.id': 1, message: 1, time: 1 } },
  { $group: { _id: '$host.id', docs: { $topN: { n: 5, sortBy: { time: -1, _id: -1 }, output: '$$ROOT' } } } }, { $unwind: '$docs' }, { $replaceRoot: { newRoot: '$docs' } }];
const n = Number(process.argv[2] ?? 30);
const ts: number[] = [];
for (let r = 0; r < n; r++) {
  const ids = hosts.slice((r * 20) % 80, (r * 20) % 80 + 20).map((h) => h._id);
  const s = performance.now();
  const cmd = decodeBsonDocument(serialize({ aggregate: 'logMessages', pipeline: pipeline(ids), cursor: { batchSize: 100 }, $db: 'd' }));
  const reply = table.aggregate!(cmd, ctx) as Document;
  encodeBsonDocument({ ok: 1, ...reply });
  ts.push(performance.now() - s);
}
ts.sort((a, b) => a - b);
console.log('median', ts[n >> 1]!.toFixed(1), 'min', ts[0]!.toFixed(1));
