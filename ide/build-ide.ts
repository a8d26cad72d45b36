import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

/**
 * Bundles docjoin's offline IDE (GraphiQL and its Monaco workers, from node_modules) into ide/dist, which
 * the gateway serves at /ide, with the script the Sandbox page at /graphql loads (sandbox-fallback.ts).
 * Runs before `npm start` and `npm test` (prestart, pretest) and in `npm run build` (so `npm pack`). Skipped when ide/dist was built from the same
 * sources and package versions, so a running server's files are left alone; a new build is written
 * beside the old one and swapped in.
 */
const IDE_DIR = __dirname;
const OUT_DIR = join(IDE_DIR, 'dist');
const require = createRequire(join(IDE_DIR, '..', 'package.json'));
const fromGraphiql = createRequire(require.resolve('@graphiql/react'));

const WORKERS: Readonly<Record<string, string>> = {
  'editor.worker': fromGraphiql.resolve('monaco-editor/esm/vs/editor/editor.worker.js'),
  'json.worker': fromGraphiql.resolve('monaco-editor/esm/vs/language/json/json.worker.js'),
  'graphql.worker': fromGraphiql.resolve('monaco-graphql/esm/graphql.worker.js'),
};

function fingerprint(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(join(IDE_DIR, 'src')).sort()) hash.update(name).update(readFileSync(join(IDE_DIR, 'src', name)));
  hash.update(readFileSync(__filename));
  for (const name of ['graphiql', '@graphiql/react', '@graphiql/toolkit', 'react', 'react-dom', 'esbuild']) {
    hash.update(`${name}@${(require(`${name}/package.json`) as { version: string }).version}`);
  }
  return hash.digest('hex');
}

async function main(): Promise<void> {
  const stamp = fingerprint();
  const stampFile = join(OUT_DIR, 'build.json');
  if (existsSync(stampFile) && (JSON.parse(readFileSync(stampFile, 'utf8')) as { fingerprint?: string }).fingerprint === stamp) {
    process.stderr.write('ide/dist is up to date\n');
    return;
  }
  const staging = `${OUT_DIR}.${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const common = { bundle: true, minify: true, legalComments: 'none', logLevel: 'warning', define: { 'process.env.NODE_ENV': '"production"' } } as const;
  await build({
    ...common,
    entryPoints: { main: join(IDE_DIR, 'src', 'main.ts') },
    outdir: staging,
    format: 'esm',
    target: 'es2022',
    loader: { '.ttf': 'file', '.woff': 'file', '.woff2': 'file', '.svg': 'file' },
    assetNames: '[name]-[hash]',
  });
  await build({ ...common, entryPoints: { ...WORKERS, 'sandbox-fallback': join(IDE_DIR, 'src', 'sandbox-fallback.ts') }, outdir: staging, format: 'iife', target: 'es2022' });
  writeFileSync(join(staging, 'build.json'), `${JSON.stringify({ fingerprint: stamp }, null, 2)}\n`);
  rmSync(OUT_DIR, { recursive: true, force: true });
  renameSync(staging, OUT_DIR);
  process.stderr.write(`built the IDE into ${resolve(OUT_DIR)}\n`);
}

main().catch((error: unknown) => {
  console.error(`docjoin: could not build the IDE: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
