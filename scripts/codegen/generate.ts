/** `npm run codegen`: rewrites schema.public.graphql and src/generated/ from schema/ and operations/. */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { generateOutputs } from './generate-outputs';
import { GENERATED_DIR, REPO_ROOT } from './paths';

async function main(): Promise<void> {
  const files = await generateOutputs();
  // Cleared first so an output codegen.yml no longer produces does not linger.
  rmSync(GENERATED_DIR, { recursive: true, force: true });
  for (const [path, content] of files) {
    const absolute = resolve(REPO_ROOT, path);
    mkdirSync(dirname(absolute), { recursive: true });
    writeFileSync(absolute, content);
    console.log(`wrote ${path}`);
  }
}

main().catch((error: unknown) => {
  console.error(`codegen failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
