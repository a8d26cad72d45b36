import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CodegenOutputs, GeneratedFiles } from './generate-outputs';
import { listedInManifest } from './folder-manifest';

/**
 * What is on disk now of what codegen writes (`outputs`), keyed like GeneratedFiles: each file it
 * generates, and in a folder target what the folder's manifest says an earlier run generated there
 * (which it would remove); not the folder's other files, which are not codegen's.
 */
export function readGeneratedTree(root: string, outputs: CodegenOutputs): GeneratedFiles {
  const paths = new Set(outputs.files.keys());
  for (const folder of outputs.roots.filter((entry) => entry.endsWith('/'))) for (const path of listedInManifest(root, folder)) paths.add(path);
  const files = new Map<string, string>();
  for (const path of [...paths].sort()) {
    const absolute = resolve(root, path);
    if (existsSync(absolute)) files.set(path, readFileSync(absolute, 'utf8'));
  }
  return files;
}
