/** `npm run codegen:check` (first step of `npm test`): exits 1, listing them, when generated files are stale. */
import { generateOutputs } from './generate-outputs';
import { GENERATED_DIR, PUBLIC_SCHEMA_FILE } from './paths';
import { readGeneratedTree } from './read-generated-tree';
import { describeStaleFiles, findStaleFiles } from './stale-files';

async function main(): Promise<void> {
  const expected = await generateOutputs();
  const stale = findStaleFiles(expected, readGeneratedTree(PUBLIC_SCHEMA_FILE, GENERATED_DIR));
  if (stale.length > 0) {
    console.error(describeStaleFiles(stale));
    process.exitCode = 1;
    return;
  }
  console.log(`codegen: ${expected.size} generated files are up to date`);
}

main().catch((error: unknown) => {
  console.error(`codegen:check failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
});
