import { ObjectId, serialize } from 'bson';
import { Store } from '../src/embedded-mongo/storage/store';
import { dataCommands } from '../src/embedded-mongo/commands/data';
import { decodeBsonDocument } from '../src/embedded-mongo/wire/bson-document';
import { generateHostsLogMessages } from '../src/seed/generators/hosts-log-messages';
const ctx = { db: 'd', connectionId: 1 };
const people = Array.from({ length: 10000 }, (_, i) => ({ _id: new ObjectId(), name: `person-${i}`, group: i % 100, score: i * 1.5, tags: [`t${i % 7}`, `t${i % 11}`] }));
const logs = generateHostsLogMessages({ hosts: 10 }).logMessages;
const bytes = serialize({ insert: 'p', documents: people });
const logBytes = serialize({ insert: 'l', documents: logs });
function t(label: string, f: () => unknown) { for (let w = 0; w < 3; w++) f(); const ts = []; for (let i = 0; i < 15; i++) { const s = performance.now(); f(); ts.push(performance.now() - s); } ts.sort((a, b) => a - b); console.log(label.padEnd(40), ts[7]!.toFixed(2)); }
t('decode+insert 10k people', () => { const table = dataCommands(new Store()); table.insert!(decodeBsonDocument(bytes), ctx); });
t('decode+insert 10k logs', () => { const table = dataCommands(new Store()); table.insert!(decodeBsonDocument(logBytes), ctx); });
t('decode only 10k people', () => decodeBsonDocument(bytes));
