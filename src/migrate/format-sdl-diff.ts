/**
 * A change to one file as hunks of changed lines, each headed `file:line` (its line in the changed
 * file), then the lines before (`-`) and after (`+`). The lines both texts keep (a longest common
 * subsequence of lines: schema files are small) are left out. Empty when the texts are equal.
 */
export function formatSdlDiff(file: string, before: string, after: string): string {
  if (before === after) return '';
  const old = before.split('\n');
  const next = after.split('\n');
  // kept[i][j]: how many lines old[i..] and next[j..] keep in common.
  const kept = Array.from({ length: old.length + 1 }, () => new Uint32Array(next.length + 1));
  for (let i = old.length - 1; i >= 0; i--) {
    for (let j = next.length - 1; j >= 0; j--) kept[i]![j] = old[i] === next[j] ? kept[i + 1]![j + 1]! + 1 : Math.max(kept[i + 1]![j]!, kept[i]![j + 1]!);
  }
  const hunks: string[] = [];
  let i = 0;
  let j = 0;
  while (i < old.length || j < next.length) {
    if (i < old.length && j < next.length && old[i] === next[j]) {
      i++;
      j++;
      continue;
    }
    const line = j + 1;
    const removed: string[] = [];
    const added: string[] = [];
    while ((i < old.length || j < next.length) && !(i < old.length && j < next.length && old[i] === next[j])) {
      if (j >= next.length || (i < old.length && kept[i + 1]![j]! >= kept[i]![j + 1]!)) removed.push(`-${old[i++]}`);
      else added.push(`+${next[j++]}`);
    }
    hunks.push(`${file}:${line}\n${[...removed, ...added].join('\n')}\n`);
  }
  return hunks.join('');
}
