import { executeCodegen, loadCodegenConfig } from '@graphql-codegen/cli';
import { relative, resolve } from 'node:path';
import { loadSdl } from '../../src/gateway/schema/load-sdl';
import { CODEGEN_CONFIG, PUBLIC_SCHEMA_FILE, REPO_ROOT } from './paths';
import { printPublicSchema, publicSchemaFile } from './public-schema';

/** Generated file contents keyed by their path relative to the repository root ('/'-separated). */
export type GeneratedFiles = ReadonlyMap<string, string>;

/**
 * Everything `npm run codegen` writes, computed in memory from schema/ and operations/ only: the public
 * schema file, then codegen.yml's outputs generated from that public schema. `codegen` writes these;
 * `codegen:check` compares them with the tree, so the two can never disagree.
 */
export async function generateOutputs(): Promise<GeneratedFiles> {
  const sdl = loadSdl();
  const files = new Map<string, string>([[repoPath(PUBLIC_SCHEMA_FILE), publicSchemaFile(sdl)]]);
  const { config } = await loadCodegenConfig({ configFilePath: CODEGEN_CONFIG });
  // The SDL itself instead of codegen.yml's `schema: schema.public.graphql`, which may be the stale file under check.
  const { result, error } = await executeCodegen({ ...config, schema: printPublicSchema(sdl), cwd: REPO_ROOT, silent: true });
  if (error) throw error;
  for (const output of [...result].sort((a, b) => a.filename.localeCompare(b.filename))) {
    files.set(repoPath(resolve(REPO_ROOT, output.filename)), output.content);
  }
  return files;
}

export function repoPath(absolutePath: string): string {
  return relative(REPO_ROOT, absolutePath).split('\\').join('/');
}
