import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The repository's schema/ folder. */
export const DEFAULT_SCHEMA_DIR = resolve(__dirname, '../../../schema');

/** Every `*.graphql` file of `dir`, in name order (directives.graphql before domain.graphql). */
export function loadSdl(dir: string = DEFAULT_SCHEMA_DIR): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.graphql'))
    .sort()
    .map((name) => readFileSync(join(dir, name), 'utf8'));
}
