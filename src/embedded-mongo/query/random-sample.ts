/**
 * `size` distinct items of `items`, chosen uniformly at random and returned in random order; all of
 * them, shuffled, when there are no more than `size`. MongoDB's `$sample` never repeats a document
 * (its random-cursor path skips duplicates, its other path is a random sort), so neither does this.
 *
 * A partial Fisher–Yates shuffle over a virtual copy: only the positions it swaps are remembered,
 * so a sample of k out of n costs O(k) time and memory, whatever n is.
 */
export function randomSample<T>(items: readonly T[], size: number, random: () => number = Math.random): T[] {
  const n = items.length;
  const k = Math.min(size, n);
  const swapped = new Map<number, number>();
  const at = (position: number) => swapped.get(position) ?? position;
  const picked: T[] = [];
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(random() * (n - i));
    const chosen = at(j);
    swapped.set(j, at(i));
    picked.push(items[chosen] as T);
  }
  return picked;
}
