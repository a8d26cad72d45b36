import { ObjectId } from 'bson';
import { mergeCopiesAndJoined, type SnapshotSlot } from '../../../../../src/gateway/request/strategies/snapshot';

describe('mergeCopiesAndJoined', () => {
  const [a, b, c, d] = [new ObjectId(), new ObjectId(), new ObjectId(), new ObjectId()];

  it('keeps the entries order: each joined document takes the place of its copy, whatever order the join answered in', () => {
    const slots: SnapshotSlot[] = [{ key: c }, { copy: { _id: a, title: 'A' } }, { key: b }, { copy: { _id: d, title: 'D' } }];
    // Another ObjectId instance of the same key matches too.
    const joined = [
      { _id: new ObjectId(b.toHexString()), title: 'B' },
      { _id: c, title: 'C' },
    ];
    expect(mergeCopiesAndJoined(slots, joined, '_id').map((document) => document.title)).toEqual(['C', 'A', 'B', 'D']);
  });

  it('leaves out an entry the join found nothing for (dangling, or dropped by its filters), and repeats a key listed twice', () => {
    const slots: SnapshotSlot[] = [{ key: a }, { key: b }, { copy: { _id: c, title: 'C' } }, { key: a }];
    expect(mergeCopiesAndJoined(slots, [null, { _id: a, title: 'A' }], '_id').map((document) => document.title)).toEqual(['A', 'C', 'A']);
  });

  it('with nothing joined, is the copies as they are', () => {
    const slots: SnapshotSlot[] = [{ copy: { _id: a, title: 'A' } }, { copy: { _id: b, title: 'B' } }];
    expect(mergeCopiesAndJoined(slots, [], '_id')).toEqual([{ _id: a, title: 'A' }, { _id: b, title: 'B' }]);
  });
});
