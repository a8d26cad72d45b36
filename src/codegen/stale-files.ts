import type { GeneratedFiles } from './generate-outputs';

export interface StaleFile {
  readonly path: string;
  /** missing: codegen would create it; changed: its content differs; orphaned: an earlier run generated it (its folder's manifest says), this one does not. */
  readonly reason: 'missing' | 'changed' | 'orphaned';
}

/** Compares what codegen produces with what is on disk under its roots (both keyed by project-relative path). */
export function findStaleFiles(expected: GeneratedFiles, onDisk: GeneratedFiles): StaleFile[] {
  const stale: StaleFile[] = [];
  for (const [path, content] of expected) {
    const actual = onDisk.get(path);
    if (actual === undefined) stale.push({ path, reason: 'missing' });
    else if (actual !== content) stale.push({ path, reason: 'changed' });
  }
  for (const path of onDisk.keys()) {
    if (!expected.has(path)) stale.push({ path, reason: 'orphaned' });
  }
  return stale.sort((a, b) => a.path.localeCompare(b.path));
}

/** The failure message of `docjoin codegen --check`: one line per stale file, then the fix. */
export function describeStaleFiles(stale: readonly StaleFile[]): string {
  const lines = stale.map(({ path, reason }) => `  ${reason.padEnd(8)} ${path}`);
  return [
    `Generated files are out of date with the SDL and the operations (${stale.length}):`,
    ...lines,
    'Run `docjoin codegen` and commit the result.',
  ].join('\n');
}
