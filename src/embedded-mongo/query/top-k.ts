/**
 * The `count` smallest items under `compare`, in ascending order, in O(n log count) time and
 * O(count) memory: a bounded max-heap whose root is the largest item kept so far, so most items
 * cost one comparison. `compare` must be a total order (break ties, e.g. by input position) for
 * the result to equal a full sort's first `count` items.
 */
export function smallest<T>(items: Iterable<T>, compare: (a: T, b: T) => number, count: number): T[] {
  if (count <= 0) return [];
  const heap: T[] = [];
  for (const item of items) {
    if (heap.length < count) {
      heap.push(item);
      siftUp(heap, heap.length - 1, compare);
    } else if (compare(item, heap[0] as T) < 0) {
      heap[0] = item;
      siftDown(heap, compare);
    }
  }
  return heap.sort(compare);
}

function siftUp<T>(heap: T[], index: number, compare: (a: T, b: T) => number): void {
  const item = heap[index] as T;
  while (index > 0) {
    const parent = (index - 1) >> 1;
    if (compare(item, heap[parent] as T) <= 0) break;
    heap[index] = heap[parent] as T;
    index = parent;
  }
  heap[index] = item;
}

function siftDown<T>(heap: T[], compare: (a: T, b: T) => number): void {
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
