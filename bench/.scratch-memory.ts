import { calculateObjectSize, deserialize, serialize, type Document } from 'bson';
import { Store } from '../src/embedded-mongo/storage/store';
import { dataCommands } from '../src/embedded-mongo/commands/data';
import { generateHostsLogMessages } from '../src/seed/generators/hosts-log-messages';
import { decodeBsonDocument } from '../src/embedded-mongo/wire/bson-document';

const gc = (globalThis as { gc?: () => void }).gc!;
const ctx = { db: 'd', connectionId: 1 };
const kind = process.argv[2] ?? 'logs';
let batches: Buffer[] = [];
let bsonBytes = 0;
{
  const docs: Document[] = kind === 'logs' ? generateHostsLogMessages({ hosts: 100 }).logMessages : Array.from({ length: 100000 }, (_, i) => ({ name: `person-${i}`, group: i % 100, score: i * 1.5, tags: [`t${i % 7}`, `t${i % 11}`] }));
  for (let i = 0; i < docs.length; i += 10000) {
    const body = { insert: 'c', documents: docs.slice(i, i + 10000), $db: 'd' };
    batches.push(Buffer.from(serialize(body)));
  }
  for (const d of docs) bsonBytes += calculateObjectSize(d);
}
gc(); gc();
const before = process.memoryUsage();
const store = new Store();
const table = dataCommands(store);
for (const b of batches) table.insert!(decodeBsonDocument(b), ctx);
batches = [];
if (process.argv[3] === 'index') table.createIndexes!({ createIndexes: 'c', indexes: [{ key: kind === 'logs' ? { 'host.id': 1, time: -1 } : { group: 1 }, name: 'i1' }] }, ctx);
gc(); gc();
const after = process.memoryUsage();
const heap = after.heapUsed - before.heapUsed;
const ext = after.external + after.arrayBuffers - before.external - before.arrayBuffers;
console.log(kind, process.argv[3] ?? '', 'bson', (bsonBytes / 1e6).toFixed(2), 'MB heapΔ', (heap / 1e6).toFixed(2), 'MB ratio', (heap / bsonBytes).toFixed(2), 'externalΔ', (ext / 1e6).toFixed(2), store.collection('d', 'c')!.size);
