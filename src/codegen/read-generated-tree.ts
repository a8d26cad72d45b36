import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { GeneratedFiles } from './generate-outputs';

/** What is on disk now under `roots` (project-relative files, and folders ending in '/'), keyed like GeneratedFiles. */
export function readGeneratedTree(root: string, roots: readonly string[]): GeneratedFiles {
  const files = new Map<string, string>();
  for (const entry of roots) {
    const absolute = resolve(root, entry);
    if (!entry.endsWith('/')) {
      if (existsSync(absolute)) files.set(entry, readFileSync(absolute, 'utf8'));
      continue;
    }
    for (const path of listFiles(absolute)) files.set(`${entry}${path}`, readFileSync(join(absolute, path), 'utf8'));
  }
  return files;
}

/** Paths below `dir`, relative to it, '/'-separated. */
function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? listFiles(join(dir, entry.name)).map((path) => `${entry.name}/${path}`) : [entry.name]));
}
