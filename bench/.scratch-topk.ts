import { ObjectId, serialize } from 'bson';
import { Store } from '../src/embedded-mongo/storage/store';
import { dataCommands } from '../src/embedded-mongo/commands/data';
import { decodeBsonDocument } from '../src/embedded-mongo/wire/bson-document';
const store = new Store();
const table = dataCommands(store);
const ctx = { db: 'd', connectionId: 1 };
const people = Array.from({ length: 100000 }, (_, i) => ({ _id: new ObjectId(), name: `person-${i}`, group: i % 100, score: i * 1.5, tags: [`t${i % 7}`, `t${i % 11}`] }));
for (let i = 0; i < people.length; i += 10000) table.insert!(decodeBsonDocument(serialize({ insert: 'p', documents: people.slice(i, i + 10000) })), ctx);
function t(label: string, f: () => unknown) { for (let w = 0; w < 3; w++) f(); const ts = []; for (let i = 0; i < 11; i++) { const s = performance.now(); f(); ts.push(performance.now() - s); } ts.sort((a, b) => a - b); console.log(label.padEnd(40), ts[5]!.toFixed(2)); }
t('sort score limit 20', () => table.find!({ find: 'p', filter: {}, sort: { score: -1 }, limit: 20 }, ctx));
t('sort _id limit 20', () => table.find!({ find: 'p', filter: {}, sort: { _id: 1 }, limit: 20 }, ctx));
t('sort _id -1 skip 100 limit 20', () => table.find!({ find: 'p', filter: {}, sort: { _id: -1 }, skip: 100, limit: 20 }, ctx));
t('filter group sort _id limit 20', () => table.find!({ find: 'p', filter: { group: 7 }, sort: { _id: 1 }, limit: 20 }, ctx));
