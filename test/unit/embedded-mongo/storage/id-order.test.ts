import { ObjectId, type Document } from 'bson';
import { IdOrder } from '../../../../src/embedded-mongo/storage/id-order';

const ids = (order: IdOrder, direction: 1 | -1 = 1): unknown[] => [...order.documents(direction)].map((doc) => doc._id);

/** A deterministic shuffle of 0..count-1. */
function shuffled(count: number): number[] {
  const values = Array.from({ length: count }, (_, i) => i);
  let state = 42;
  for (let i = values.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2147483648;
    const j = state % (i + 1);
    [values[i], values[j]] = [values[j]!, values[i]!];
  }
  return values;
}

describe('IdOrder', () => {
  it('builds the BSON order of mixed _id types', () => {
    const docs: Document[] = [{ _id: 'b' }, { _id: new ObjectId('000000000000000000000001') }, { _id: 2 }, { _id: 'a' }, { _id: 1.5 }];
    const order = new IdOrder(docs);
    expect(ids(order).map(String)).toEqual(['1.5', '2', 'a', 'b', '000000000000000000000001']);
    expect(ids(order, -1).map(String)).toEqual(['000000000000000000000001', 'b', 'a', '2', '1.5']);
  });

  it('stays in order through thousands of out-of-order inserts, removals and replacements (chunks split and empty)', () => {
    const order = new IdOrder([]);
    const kept = new Set<number>();
    for (const n of shuffled(3000)) {
      order.insert({ _id: n, v: 'first' });
      kept.add(n);
    }
    for (const n of shuffled(3000).slice(0, 1700)) {
      order.remove(n);
      kept.delete(n);
    }
    order.replace({ _id: [...kept][0]!, v: 'second' });
    order.remove(99_999); // absent: nothing happens
    const expected = [...kept].sort((a, b) => a - b);
    expect(ids(order)).toEqual(expected);
    expect(ids(order, -1)).toEqual([...expected].reverse());
    expect(order.size).toBe(1300);
    expect([...order.documents(1)].find((doc) => doc._id === [...kept][0])?.v).toBe('second');
  });

  it('appends growing ObjectIds at the end', () => {
    const first = new ObjectId();
    const order = new IdOrder([{ _id: first }]);
    const later = Array.from({ length: 1200 }, () => new ObjectId());
    for (const id of later) order.insert({ _id: id });
    expect(ids(order)).toEqual([first, ...later]);
  });
});
