/**
 * A change to one file as one hunk, `file:line` then the lines before (`-`) and after (`+`); the lines
 * both texts share at the start and the end are left out. Empty when the texts are equal.
 */
export function formatSdlDiff(file: string, before: string, after: string): string {
  if (before === after) return '';
  const old = before.split('\n');
  const next = after.split('\n');
  let head = 0;
  while (head < old.length && head < next.length && old[head] === next[head]) head++;
  let tail = 0;
  while (tail < old.length - head && tail < next.length - head && old[old.length - 1 - tail] === next[next.length - 1 - tail]) tail++;
  const removed = old.slice(head, old.length - tail).map((line) => `-${line}`);
  const added = next.slice(head, next.length - tail).map((line) => `+${line}`);
  return `${file}:${head + 1}\n${[...removed, ...added].join('\n')}\n`;
}
