import { ObjectId } from 'bson';
import { sortDocuments, firstSorted } from '../src/embedded-mongo/query/sort-documents';
import { runPipeline } from '../src/embedded-mongo/query';
const docs = Array.from({ length: 20000 }, (_, i) => Object.freeze({ _id: new ObjectId(), time: new Date(1e12 + ((i * 7919) % 20000) * 1000), host: Object.freeze({ id: new ObjectId() }), message: 'x' + i }));
function t(label: string, f: () => unknown) { for (let w = 0; w < 3; w++) f(); const ts = []; for (let i = 0; i < 7; i++) { const s = performance.now(); f(); ts.push(performance.now() - s); } ts.sort((a, b) => a - b); console.log(label.padEnd(40), ts[3]!.toFixed(2)); }
t('sort 20k time,_id', () => sortDocuments(docs, { time: -1, _id: -1 }));
t('first 5 of 1000 x20', () => { for (let g = 0; g < 20; g++) firstSorted(docs.slice(g * 1000, g * 1000 + 1000), { time: -1, _id: -1 }, 5); });
const hostIds = Array.from({ length: 20 }, () => new ObjectId());
const docs2 = docs.map((d, i) => Object.freeze({ ...d, host: Object.freeze({ id: hostIds[i % 20] }) }));
t('group topN', () => runPipeline(docs2, [{ $group: { _id: '$host.id', docs: { $topN: { n: 5, sortBy: { time: -1, _id: -1 }, output: '$$ROOT' } } } }], { collection: () => [] }));
t('project', () => runPipeline(docs2, [{ $project: { _id: 1, 'host.id': 1, message: 1, time: 1 } }], { collection: () => [] }));
t('sort stage', () => runPipeline(docs2, [{ $sort: { time: -1, _id: -1 } }], { collection: () => [] }));
