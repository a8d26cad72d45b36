import { execFileSync } from 'node:child_process';

/**
 * How many files of the npm package `packageName` a fresh Node process (TypeScript through tsx) has
 * loaded once `script` has run: for checking that a module loads a dependency only when it needs it.
 */
export function packageFilesLoadedBy(script: string, packageName: string): number {
  const count = `console.log(Object.keys(require.cache).filter((file) => file.includes(${JSON.stringify(`/node_modules/${packageName}/`)})).length);`;
  return Number(execFileSync(process.execPath, ['--import', 'tsx', '-e', `${script}\n${count}`], { encoding: 'utf8' }).trim());
}
