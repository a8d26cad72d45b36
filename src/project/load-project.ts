import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { IResolvers } from '@graphql-tools/utils';
import type { ShardKeys } from '../sharding/shard-targeting';
import { createJiti } from 'jiti';
import { checkSchemaSources, schemaFilePaths, withDirectiveTypeDefs, type MutationWritePlans } from '../gateway';
import { findUnknownKey, PROJECT_CONFIG_KEYS } from './config-keys';
import { describeLoadError, locatesInFile } from './describe-load-error';
import type { DocjoinProjectConfig } from './project-config';

/** The names `docjoin` looks for in the working folder when no `--config` is given, in this order. */
export const CONFIG_FILE_NAMES = ['docjoin.config.ts', 'docjoin.config.mts', 'docjoin.config.mjs', 'docjoin.config.js', 'docjoin.config.cjs', 'docjoin.config.json'] as const;

/** A config file that cannot be found, loaded or understood; the message is one line naming the file and the fix. */
export class ProjectConfigError extends Error {
  override readonly name = 'ProjectConfigError';
}

/** A project as the commands use it: its config checked, its SDL read, its paths absolute. */
export interface Project {
  /** The config file, or undefined for a project given by flags alone (`--schema`). */
  readonly configFile: string | undefined;
  /** The folder paths are relative to. */
  readonly root: string;
  readonly config: DocjoinProjectConfig;
  /** The SDL with docjoin's directive definitions. */
  readonly typeDefs: string[];
  /** The absolute paths of the project's SDL files, in the order their text is in `typeDefs`. */
  readonly schemaFiles: readonly string[];
  /** The absolute paths of the folders among the schema's sources: every SDL file in them is read. */
  readonly schemaFolders: readonly string[];
  readonly resolvers: IResolvers[];
  readonly writePlans: MutationWritePlans;
  /** Absolute path of the public schema `docjoin codegen` writes. */
  readonly publicSchemaFile: string;
  /** Absolute path of the project's graphql-codegen config, if it has one. */
  readonly codegenConfigFile: string | undefined;
  /** The public schema carries the IBM cost directives (`codegen.costDirectives`). */
  readonly costDirectives: boolean;
  /** The shard key of each collection of a sharded cluster (`mongodb.shardKeys`; none: not sharded). */
  readonly shardKeys: ShardKeys;
}


/** The one config file among CONFIG_FILE_NAMES in `folder`; two are refused, since either could be the one the team edits. */
function foundConfigFile(folder: string): string | undefined {
  const found = CONFIG_FILE_NAMES.filter((name) => existsSync(resolve(folder, name)));
  if (found.length > 1) {
    throw new ProjectConfigError(`${folder} holds ${found.join(' and ')}: docjoin reads one config; merge them into one file and remove the other, or pass --config FILE`);
  }
  return found[0] === undefined ? undefined : resolve(folder, found[0]);
}

/**
 * Finds and loads the project: `configPath` when given, else the one of CONFIG_FILE_NAMES in `cwd`.
 * `schemaPaths` (the `--schema` flag) replace the config's `schema`; with them no config file is needed.
 */
export async function loadProject(options: { cwd: string; configPath?: string; schemaPaths?: readonly string[] }): Promise<Project> {
  const configFile = options.configPath !== undefined ? resolve(options.cwd, options.configPath) : foundConfigFile(options.cwd);
  if (options.configPath !== undefined && !existsSync(configFile!)) throw new ProjectConfigError(`--config: ${options.configPath} does not exist`);
  if (options.configPath !== undefined && statSync(configFile!).isDirectory()) {
    const inside = CONFIG_FILE_NAMES.find((name) => existsSync(resolve(configFile!, name)));
    throw new ProjectConfigError(`--config: ${options.configPath} is a folder; pass the config file${inside === undefined ? ' (docjoin.config.ts, .mjs, .js, .cjs or .json)' : `, e.g. --config ${join(options.configPath, inside)}`}`);
  }
  if (options.schemaPaths !== undefined && options.schemaPaths.length === 0) throw new ProjectConfigError('--schema: no path given; pass SDL files or folders, comma-separated');
  if (configFile === undefined && options.schemaPaths === undefined) {
    throw new ProjectConfigError(`no docjoin.config.* in ${options.cwd}; run \`docjoin init\` to create one, or pass --config FILE or --schema PATH`);
  }
  const root = configFile === undefined ? options.cwd : dirname(configFile);
  const config = configFile === undefined ? {} : withServerFilesFromRoot(checkConfig(await importConfig(configFile), basename(configFile)), root);
  const schemaPaths = options.schemaPaths ?? toList(config.schema ?? 'schema');
  const schemaBase = options.schemaPaths !== undefined ? options.cwd : root;
  const schemaFiles = schemaFilePaths(schemaPaths, schemaBase, options.schemaPaths !== undefined ? '--schema' : 'config');
  const bodies = schemaFiles.map((file) => readFileSync(file, 'utf8'));
  checkSchemaSources(schemaFiles.map((file, index) => ({ name: shownPath(options.cwd, file), body: bodies[index]! })));
  return {
    configFile,
    root,
    config,
    typeDefs: withDirectiveTypeDefs(bodies),
    schemaFiles,
    schemaFolders: schemaPaths.map((path) => resolve(schemaBase, path)).filter((path) => statSync(path).isDirectory()),
    resolvers: config.resolvers === undefined ? [] : Array.isArray(config.resolvers) ? [...(config.resolvers as IResolvers[])] : [config.resolvers as IResolvers],
    writePlans: config.writePlans ?? {},
    publicSchemaFile: resolve(root, config.codegen?.publicSchema ?? 'schema.public.graphql'),
    codegenConfigFile: config.codegen?.config === undefined ? undefined : resolve(root, config.codegen.config),
    costDirectives: costDirectivesOption(config.codegen?.costDirectives, configFile === undefined ? 'the config' : basename(configFile)),
    shardKeys: shardKeysOption(config.mongodb?.shardKeys, configFile === undefined ? 'the config' : basename(configFile)),
  };
}

/**
 * The files the `server` settings name (`trustedDocuments.manifest`, `workload.file`) are relative to
 * the config's folder, as the config's other paths are (a gateway given them as options reads them from
 * the working folder, as does DOCJOIN_WORKLOAD).
 */
function withServerFilesFromRoot(config: DocjoinProjectConfig, root: string): DocjoinProjectConfig {
  const { server } = config;
  if (!server) return config;
  const fromRoot = (file: string) => (isAbsolute(file) ? file : resolve(root, file));
  const { trustedDocuments: trusted, workload } = server;
  return {
    ...config,
    server: {
      ...server,
      ...(typeof trusted?.manifest === 'string' && { trustedDocuments: { ...trusted, manifest: fromRoot(trusted.manifest) } }),
      ...(typeof workload === 'object' && workload !== null && 'file' in workload && typeof workload.file === 'string' && { workload: { ...workload, file: fromRoot(workload.file) } }),
    },
  };
}

/** A file as an error names it: relative to the working folder when inside it, else absolute. */
function shownPath(cwd: string, file: string): string {
  const inside = relative(cwd, file);
  return inside === '' || inside.startsWith('..') || isAbsolute(inside) ? file : inside;
}

/** `mongodb.shardKeys`: per collection, a non-empty key of paths to 1, -1 or "hashed". */
function shardKeysOption(value: unknown, name: string): ShardKeys {
  if (value === undefined) return {};
  const wrong = (what: string) => new ProjectConfigError(`${name}: mongodb.shardKeys${what}, e.g. { logMessages: { "host.id": "hashed" }, comments: { postId: 1, _id: 1 } }`);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw wrong(` must map collection names to shard keys, got ${JSON.stringify(value)}`);
  for (const [collection, key] of Object.entries(value)) {
    const entries = typeof key === 'object' && key !== null && !Array.isArray(key) ? Object.entries(key) : [];
    if (entries.length === 0 || !entries.every(([, direction]) => direction === 1 || direction === -1 || direction === 'hashed')) {
      throw wrong(`.${collection} must be a shard key of paths to 1, -1 or "hashed", got ${JSON.stringify(key)}`);
    }
    const hashed = entries.filter(([, direction]) => direction === 'hashed').length;
    if (hashed > 1) throw wrong(`.${collection} has ${hashed} hashed fields; a shard key hashes at most one`);
  }
  return value as ShardKeys;
}

/** `codegen.costDirectives`: a boolean, false by default. */
function costDirectivesOption(value: unknown, name: string): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new ProjectConfigError(`${name}: codegen.costDirectives must be true or false, got ${JSON.stringify(value)}`);
  return value;
}

/**
 * The config module's default export (or what the function it exports returns). TypeScript goes through
 * jiti unless a TypeScript loader already runs this process (tsx, ts-node and jest load `.ts` through
 * `require`); JavaScript through `require` (Node ≥ 20.19 requires ES modules), and jiti for an ES module
 * `require` cannot load (top-level await).
 */
async function importConfig(file: string): Promise<unknown> {
  const name = basename(file);
  try {
    if (file.endsWith('.json')) return JSON.parse(readFileSync(file, 'utf8'));
    let loaded: unknown;
    if (/\.[mc]?ts$/.test(file) && !typeScriptLoaderRuns()) {
      loaded = await createJiti(__filename, { interopDefault: false }).import(file);
    } else {
      try {
        loaded = require(file);
      } catch (error) {
        const code = (error as { code?: unknown } | null)?.code;
        if (code === 'ERR_REQUIRE_ESM' || code === 'ERR_REQUIRE_ASYNC_MODULE') loaded = await createJiti(__filename, { interopDefault: false }).import(file);
        else throw error instanceof SyntaxError && !locatesInFile(error, file) ? locatedSyntaxError(file, error) : error;
      }
    }
    const exported = hasDefault(loaded) ? loaded.default : withoutDefault(loaded, file);
    return typeof exported === 'function' ? await (exported as () => unknown)() : exported;
  } catch (error) {
    if (error instanceof ProjectConfigError) throw error;
    throw new ProjectConfigError(`${name} could not be loaded: ${describeLoadError(error, file)}`);
  }
}

function hasDefault(loaded: unknown): loaded is { default: unknown } {
  return typeof loaded === 'object' && loaded !== null && 'default' in loaded;
}

/**
 * What a module without a default export gives: a CommonJS module's exports object itself; an ES module
 * (its namespace, or one compiled to CommonJS) is refused, naming what it exports instead.
 */
function withoutDefault(loaded: unknown, file: string): unknown {
  const marked = typeof loaded === 'object' && loaded !== null && ((loaded as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag] === 'Module' || (loaded as { __esModule?: unknown }).__esModule === true);
  if (!marked && !/\.m[jt]s$/.test(file)) return loaded;
  const named = typeof loaded === 'object' && loaded !== null ? Object.keys(loaded).filter((key) => key !== '__esModule') : [];
  throw new ProjectConfigError(`${basename(file)} has no default export${named.length > 0 ? ` (it exports ${named.join(', ')})` : ''}: write export default defineConfig({ schema: 'schema' })`);
}

/**
 * Node's SyntaxError from `require` of an ES module does not say where the mistake is. jiti's parser
 * does: its transform (which runs nothing) gives the place, or `nodeError` when it finds none there.
 */
function locatedSyntaxError(file: string, nodeError: SyntaxError): unknown {
  let transformed: string;
  try {
    transformed = createJiti(__filename).transform({ source: readFileSync(file, 'utf8'), filename: file, ts: /\.[mc]?ts$/.test(file) });
  } catch {
    return nodeError;
  }
  const reported = /^exports\.__JITI_ERROR__ = (.*)$/s.exec(transformed)?.[1];
  const parsed = reported === undefined ? undefined : (JSON.parse(reported) as { line?: unknown; message?: unknown });
  if (typeof parsed?.line !== 'number' || typeof parsed.message !== 'string') return nodeError;
  return new SyntaxError(`${parsed.message.trim()}\n ${file}:${parsed.line}`);
}

/**
 * Whether `require` already compiles TypeScript here: tsx and ts-node register `.ts`, and jest's module
 * registry (which leaves `require.extensions` empty) transforms every file it loads.
 */
function typeScriptLoaderRuns(): boolean {
  const extensions = require.extensions as Record<string, unknown> | undefined;
  return extensions === undefined || '.ts' in extensions || Object.keys(extensions).length === 0;
}

/** The export must be an object with known keys; the values' types are checked where they are used. */
function checkConfig(exported: unknown, name: string): DocjoinProjectConfig {
  if (typeof exported !== 'object' || exported === null || Array.isArray(exported)) {
    throw new ProjectConfigError(`${name} must export an object (export default defineConfig({ schema: 'schema' })), got ${exported === null ? 'null' : Array.isArray(exported) ? 'an array' : typeof exported}`);
  }
  const unknown = findUnknownKey(exported, PROJECT_CONFIG_KEYS);
  if (unknown) {
    const at = unknown.path.includes('.') ? ` of ${unknown.path.slice(0, unknown.path.lastIndexOf('.'))}` : '';
    throw new ProjectConfigError(`${name}: unknown key "${unknown.path}"${unknown.nearest ? ` (did you mean "${unknown.nearest}"?)` : ''}; the keys${at} are ${unknown.known.join(', ')}`);
  }
  const config = exported as DocjoinProjectConfig;
  const schema: unknown = config.schema;
  if (schema !== undefined && !(typeof schema === 'string' || (Array.isArray(schema) && schema.length > 0 && schema.every((path) => typeof path === 'string')))) {
    throw new ProjectConfigError(`${name}: schema must be a path or a list of paths (files or folders of .graphql files), got ${JSON.stringify(schema)}`);
  }
  const shapes = { mongodb: '{ uri?, db? }', server: "{ port?, host?, limits?, … } (createGateway's settings)", writePlans: '{ mutationField: [steps] }' } as const;
  for (const [key, shape] of Object.entries(shapes) as Array<[keyof typeof shapes, string]>) {
    const value: unknown = config[key];
    if (value !== undefined && (typeof value !== 'object' || value === null || Array.isArray(value))) throw new ProjectConfigError(`${name}: ${key} must be ${shape}, got ${JSON.stringify(value)}`);
  }
  const writes: unknown = config.writes;
  const transactions = (writes as { transactions?: unknown } | null | undefined)?.transactions;
  if (writes !== undefined && (typeof writes !== 'object' || writes === null || ![undefined, 'auto', 'never'].includes(transactions as string))) {
    throw new ProjectConfigError(`${name}: writes must be { transactions?: 'auto' | 'never' }, got ${JSON.stringify(writes)}`);
  }
  checkCodegenOption(config.codegen, name);
  const seed: unknown = config.seed;
  if (seed !== undefined && typeof seed !== 'function') throw new ProjectConfigError(`${name}: seed must be a function (db, { scale, onProgress }) => Promise, got ${typeof seed}`);
  return config;
}

function checkCodegenOption(codegen: unknown, name: string): void {
  if (codegen === undefined) return;
  if (typeof codegen !== 'object' || codegen === null || Array.isArray(codegen)) {
    throw new ProjectConfigError(`${name}: codegen must be { publicSchema?, config?, costDirectives? }, e.g. codegen: { config: 'codegen.yml' }, got ${JSON.stringify(codegen)}`);
  }
  for (const key of ['publicSchema', 'config'] as const) {
    const path: unknown = (codegen as Record<string, unknown>)[key];
    if (path !== undefined && (typeof path !== 'string' || path.trim() === '')) {
      throw new ProjectConfigError(`${name}: codegen.${key} must be a file's path, relative to the config's folder, got ${JSON.stringify(path)}`);
    }
  }
}

function toList(value: string | readonly string[]): readonly string[] {
  return typeof value === 'string' ? [value] : value;
}
