import { ObjectId } from 'bson';
import { compileSort } from '../src/embedded-mongo/query/sort-documents';
import { typeRank } from '../src/embedded-mongo/query/bson-kind';
const docs = Array.from({ length: 20000 }, (_, i) => Object.freeze({ _id: new ObjectId(), time: new Date(1e12 + ((i * 7919) % 20000) * 1000), host: Object.freeze({ id: new ObjectId() }), message: 'x' + i }));
const c = compileSort({ time: -1, _id: -1 });
function t(label: string, f: () => unknown) { for (let w = 0; w < 5; w++) f(); const ts = []; for (let i = 0; i < 15; i++) { const s = performance.now(); f(); ts.push(performance.now() - s); } ts.sort((a, b) => a - b); console.log(label.padEnd(40), ts[7]!.toFixed(2)); }
t('keyOf 20k', () => { let x = 0; for (const d of docs) x += c.keyOf(d).length; return x; });
t('typeRank 40k', () => { let x = 0; for (const d of docs) x += typeRank(d.time) + typeRank(d._id); return x; });
t('getTime+hex', () => { let x = 0; for (const d of docs) x += d.time.getTime() + d._id.toHexString().length; return x; });
const keys = docs.map((d) => c.keyOf(d));
t('sort 20k keys', () => { const idx = keys.map((k, i) => ({ k, i })); idx.sort((a, b) => c.compare(a.k, b.k) || a.i - b.i); });
