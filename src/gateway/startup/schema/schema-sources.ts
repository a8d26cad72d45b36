import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parse, Kind } from 'graphql';
import { StorageConfigError } from '../../errors/internal-errors';
import { directiveTypeDefs } from './directive-type-defs';

/**
 * The SDL of `paths` (files, or folders whose `*.graphql` files are all read, in name order), resolved
 * against `baseDir`. A path that does not exist, or a folder with no `.graphql` file, is a
 * StorageConfigError naming it.
 */
export function readSchemaFiles(paths: readonly string[], baseDir: string): string[] {
  return schemaFilePaths(paths, baseDir).map((file) => readFileSync(file, 'utf8'));
}

/** The absolute paths of the files readSchemaFiles reads, in the same order (`docjoin migrate` edits them). */
export function schemaFilePaths(paths: readonly string[], baseDir: string): string[] {
  const files: string[] = [];
  for (const path of paths) {
    const absolute = resolve(baseDir, path);
    let isFolder: boolean;
    try {
      isFolder = statSync(absolute).isDirectory();
    } catch {
      throw new StorageConfigError([`schema: ${relative(process.cwd(), absolute) || absolute} does not exist; list your SDL files or folders in the config's "schema"`]);
    }
    if (!isFolder) {
      files.push(absolute);
      continue;
    }
    const names = readdirSync(absolute).filter((name) => name.endsWith('.graphql') || name.endsWith('.gql')).sort();
    if (names.length === 0) throw new StorageConfigError([`schema: the folder ${relative(process.cwd(), absolute) || absolute} has no .graphql file`]);
    for (const name of names) files.push(join(absolute, name));
  }
  return files;
}

/**
 * `typeDefs` with docjoin's directive definitions added in front, unless they already define
 * `@collection` (an SDL written against an older copy keeps its own).
 */
export function withDirectiveTypeDefs(typeDefs: string | readonly string[]): string[] {
  const sources = typeof typeDefs === 'string' ? [typeDefs] : [...typeDefs];
  const definesDirectives = sources.some((source) =>
    parse(source, { noLocation: true }).definitions.some((definition) => definition.kind === Kind.DIRECTIVE_DEFINITION && definition.name.value === 'collection'),
  );
  return definesDirectives ? sources : [directiveTypeDefs, ...sources];
}
