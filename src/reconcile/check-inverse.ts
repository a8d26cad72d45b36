import type { Db, Document } from 'mongodb';
import { keyString, readPath, type InverseRule } from '../gateway';
import { expectedInverse } from './expected-inverse';
import type { Repair } from './scan-batches';

/** The derived side of a two-way reference must list exactly the truth documents pointing back, in `_id` order. */
export function inverseCheck(db: Db, rule: InverseRule) {
  return {
    projection: { _id: 1, [rule.path]: 1 },
    async check(batch: Document[]): Promise<Repair[]> {
      const expected = await expectedInverse(db, rule, batch.map((parent) => parent._id));
      const repairs: Repair[] = [];
      for (const parent of batch) {
        const want = expected.get(keyString(parent._id)) ?? [];
        const stored = readPath(parent, rule.path);
        // Absent or null reads as no id; anything else but an array (a lone id) is drift, whatever it holds.
        const listed = stored === undefined || stored === null || Array.isArray(stored);
        const have = Array.isArray(stored) ? stored : [];
        if (!listed || have.map(keyString).join(',') !== want.map(keyString).join(',')) {
          repairs.push({ id: parent._id, filter: { _id: parent._id, [rule.path]: stored ?? null }, update: { $set: { [rule.path]: want } } });
        }
      }
      return repairs;
    },
  };
}
