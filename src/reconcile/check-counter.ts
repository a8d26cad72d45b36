import type { Db, Document } from 'mongodb';
import { keyString, readPath, type CounterRule } from '../gateway';
import { expectedInverse } from './expected-inverse';
import type { Repair } from './scan-batches';
import { holdsOneOf, presentKeys } from './lookup-keys';

/** A counter must equal what it counts: children pointing at the parent, or the truth side of an inverse. */
export function counterCheck(db: Db, counter: CounterRule) {
  const source = counter.source;
  const parentKey = source.kind === 'children' ? source.parentKey : '_id';
  return {
    projection: { _id: 1, [parentKey]: 1, [counter.path]: 1 },
    async check(batch: Document[]): Promise<Repair[]> {
      // A parent without its key has no children: `$in: [null]` would count the children that lack one.
      const keys = presentKeys(batch.map((parent) => readPath(parent, parentKey)));
      const counts = new Map<string, number>();
      switch (source.kind) {
        case 'children': {
          const groups = await db
            .collection(source.childCollection)
            .aggregate([{ $match: holdsOneOf(source.childKey, keys) }, { $group: { _id: `$${source.childKey}`, n: { $sum: 1 } } }])
            .toArray();
          for (const group of groups) counts.set(keyString(group._id), Number(group.n));
          break;
        }
        case 'inverse':
          for (const [key, ids] of await expectedInverse(db, source.inverse, keys)) counts.set(key, ids.length);
          break;
        default: {
          const never: never = source;
          throw new Error(`unknown counter source ${JSON.stringify(never)}`);
        }
      }
      const repairs: Repair[] = [];
      for (const parent of batch) {
        const want = counts.get(keyString(readPath(parent, parentKey))) ?? 0;
        const have = readPath(parent, counter.path);
        if (have !== want) repairs.push({ id: parent._id, filter: { _id: parent._id, [counter.path]: have ?? null }, update: { $set: { [counter.path]: want } } });
      }
      return repairs;
    },
  };
}
