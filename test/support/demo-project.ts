import { mkdirSync, mkdtempSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readSchemaFiles, withDirectiveTypeDefs } from 'docjoin';
import { rootResolvers, rootWritePlans } from '../../resolvers';

/** The demo project's folder (the repository's top level) and config, as the CLI is pointed at them. */
export const DEMO_DIR = resolve(__dirname, '../..');
export const DEMO_CONFIG = resolve(DEMO_DIR, 'docjoin.config.ts');

/** The demo's SDL with docjoin's directive definitions in front, as a gateway reads it. */
export function demoTypeDefs(): string[] {
  return withDirectiveTypeDefs(readSchemaFiles(['schema'], DEMO_DIR));
}

/** What createGateway needs to serve the demo: its SDL, resolvers and write plans. */
export function demoProjectOptions(): { typeDefs: string[]; resolvers: typeof rootResolvers; writePlans: typeof rootWritePlans } {
  return { typeDefs: demoTypeDefs(), resolvers: rootResolvers, writePlans: rootWritePlans };
}

/**
 * A new empty folder under the demo's test-results/, for a scratch project: inside the demo, graphql-codegen's
 * plugins resolve from its node_modules, as they do in a team's project. The caller removes it.
 */
export function demoScratchFolder(prefix: string): string {
  const scratchRoot = resolve(DEMO_DIR, 'test-results');
  mkdirSync(scratchRoot, { recursive: true });
  return mkdtempSync(join(scratchRoot, prefix));
}
