import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { BREAK, isTypeDefinitionNode, Kind, parse, visit, type DocumentNode } from 'graphql';
import { SchemaSourceError } from '../../errors/internal-errors';
import { PROVIDED_SCALARS } from '../scalars/provided-scalars';
import { directiveTypeDefs } from './directive-type-defs';
import { AGGREGATE_TYPES_HEADER, aggregateTypeDefs, refuseNameClashes } from '../aggregates/aggregate-type-defs';

/**
 * The SDL of `paths` (files, or folders whose `*.graphql` files are all read, in name order), resolved
 * against `baseDir`. A path that does not exist, or a folder with no `.graphql` file, is a
 * SchemaSourceError naming it.
 */
export function readSchemaFiles(paths: readonly string[], baseDir: string): string[] {
  return schemaFilePaths(paths, baseDir).map((file) => readFileSync(file, 'utf8'));
}

/**
 * The absolute paths of the files readSchemaFiles reads, in the same order (`docjoin migrate` edits them).
 * `given`: where the paths come from, for the error naming one that does not exist.
 */
export function schemaFilePaths(paths: readonly string[], baseDir: string, given: 'config' | '--schema' = 'config'): string[] {
  const files: string[] = [];
  for (const path of paths) {
    const absolute = resolve(baseDir, path);
    let isFolder: boolean;
    try {
      isFolder = statSync(absolute).isDirectory();
    } catch {
      throw new SchemaSourceError([
        given === '--schema'
          ? `--schema: ${path} does not exist; pass SDL files or folders, comma-separated`
          : `schema: ${relative(process.cwd(), absolute) || absolute} does not exist; list your SDL files or folders in the config's "schema"`,
      ]);
    }
    if (!isFolder) {
      files.push(absolute);
      continue;
    }
    const names = sdlFileNames(absolute);
    if (names.length === 0) throw new SchemaSourceError([`schema: the folder ${relative(process.cwd(), absolute) || absolute} has no .graphql file`]);
    for (const name of names) files.push(join(absolute, name));
  }
  // A file reached twice (`schema, schema/schema.graphql`) is read once: read twice, each of its types would be defined twice.
  return [...new Set(files)];
}

/** The names of the SDL files (`.graphql`, `.gql`) a schema folder holds, in the order they are read. */
export function sdlFileNames(folder: string): string[] {
  return readdirSync(folder).filter((name) => name.endsWith('.graphql') || name.endsWith('.gql')).sort();
}

/**
 * `typeDefs` with what docjoin provides: in front, its directive definitions, unless they already
 * define `@collection` (an SDL written against an older copy keeps its own), and the scalars docjoin
 * provides (`DateTime`, `Decimal`, `Long`) that they use without defining; behind, the types their `@aggregate` fields return.
 */
export function withDirectiveTypeDefs(typeDefs: string | readonly string[]): string[] {
  // Sources that went through here before hold the aggregate types already: they are made again.
  const sources = (typeof typeDefs === 'string' ? [typeDefs] : [...typeDefs]).filter((source) => !source.startsWith(AGGREGATE_TYPES_HEADER));
  const documents = sources.map((source) => parse(source, { noLocation: true }));
  const definesDirectives = documents.some((document) =>
    document.definitions.some((definition) => definition.kind === Kind.DIRECTIVE_DEFINITION && definition.name.value === 'collection'),
  );
  const aggregates = aggregateTypeDefs(documents);
  if (aggregates) refuseNameClashes(documents, aggregates);
  const scalars = [...PROVIDED_SCALARS].filter(([name]) => needsScalar(documents, name)).map(([, { typeDefs }]) => typeDefs);
  const provided = [...(definesDirectives ? [] : [directiveTypeDefs]), ...scalars];
  // After the sources: the public schema prints types in the order they come.
  return [...provided, ...sources, ...(aggregates ? [aggregates] : [])];
}

function needsScalar(documents: readonly DocumentNode[], name: string): boolean {
  const defines = documents.some((document) => document.definitions.some((definition) => isTypeDefinitionNode(definition) && definition.name.value === name));
  return !defines && documents.some((document) => uses(document, name));
}

function uses(document: DocumentNode, name: string): boolean {
  let used = false;
  visit(document, {
    NamedType(node) {
      if (node.name.value !== name) return undefined;
      used = true;
      return BREAK;
    },
  });
  return used;
}
