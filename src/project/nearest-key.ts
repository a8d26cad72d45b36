/**
 * The known key with the fewest edits from `key` (case ignored), if that is at most a third of its
 * length, at least 2 but fewer than its length (`id` suggests nothing, not `db`).
 */
export function nearestKey(key: string, known: readonly string[]): string | undefined {
  let nearest: string | undefined;
  let fewest = Math.min(Math.max(2, Math.floor(key.length / 3)), key.length - 1) + 1;
  for (const candidate of known) {
    const edits = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (edits < fewest) [nearest, fewest] = [candidate, edits];
  }
  return nearest;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const substitution = rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, substitution);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}
