import { resolve } from 'node:path';

/** Where codegen reads and writes, relative to the repository root. */
export const REPO_ROOT = resolve(__dirname, '../..');
export const CODEGEN_CONFIG = resolve(REPO_ROOT, 'codegen.yml');
export const PUBLIC_SCHEMA_FILE = resolve(REPO_ROOT, 'schema.public.graphql');
export const GENERATED_DIR = resolve(REPO_ROOT, 'src/generated');
