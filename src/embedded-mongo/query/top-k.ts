/**
 * Keeps the `capacity` smallest items offered under `compare`, in O(log capacity) per offer and
 * O(capacity) memory: a max-heap whose root is the largest item kept, so most offers cost one
 * comparison. `compare` must be a total order (break ties, e.g. by input position) for the result
 * to equal a full sort's first `capacity` items.
 */
export class BoundedHeap<T> {
  private readonly heap: T[] = [];

  constructor(
    private readonly capacity: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  /** Whether `item` would be kept: the heap has room, or it is smaller than the largest kept. */
  wouldKeep(item: T): boolean {
    return this.capacity > 0 && (this.heap.length < this.capacity || this.compare(item, this.heap[0] as T) < 0);
  }

  offer(item: T): void {
    if (!this.wouldKeep(item)) return;
    if (this.heap.length < this.capacity) {
      this.heap.push(item);
      this.siftUp(this.heap.length - 1);
    } else {
      this.heap[0] = item;
      this.siftDown();
    }
  }

  /** The kept items, ascending. */
  sorted(): T[] {
    return [...this.heap].sort(this.compare);
  }

  private siftUp(index: number): void {
    const { heap, compare } = this;
    const item = heap[index] as T;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (compare(item, heap[parent] as T) <= 0) break;
      heap[index] = heap[parent] as T;
      index = parent;
    }
    heap[index] = item;
  }

  private siftDown(): void {
    const { heap, compare } = this;
    const length = heap.length;
    const item = heap[0] as T;
    let index = 0;
    for (;;) {
      let child = 2 * index + 1;
      if (child >= length) break;
      if (child + 1 < length && compare(heap[child + 1] as T, heap[child] as T) > 0) child += 1;
      if (compare(heap[child] as T, item) <= 0) break;
      heap[index] = heap[child] as T;
      index = child;
    }
    heap[index] = item;
  }
}

/** The `count` smallest items under `compare` (a total order), ascending; O(n log count). */
export function smallest<T>(items: Iterable<T>, compare: (a: T, b: T) => number, count: number): T[] {
  const heap = new BoundedHeap(count, compare);
  for (const item of items) heap.offer(item);
  return heap.sorted();
}
