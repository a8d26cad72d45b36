import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoPath, type GeneratedFiles } from './generate-outputs';

/** What is on disk now: the public schema file and every file under src/generated (recursively). */
export function readGeneratedTree(publicSchemaFile: string, generatedDir: string): GeneratedFiles {
  const files = new Map<string, string>();
  if (existsSync(publicSchemaFile)) files.set(repoPath(publicSchemaFile), readFileSync(publicSchemaFile, 'utf8'));
  for (const path of listFiles(generatedDir)) files.set(repoPath(path), readFileSync(path, 'utf8'));
  return files;
}

function listFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? listFiles(path) : [path];
  });
}
