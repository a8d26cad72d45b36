import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * `npm run bench`: runs every other `*.ts` file in bench/, one after another, each in its own
 * process (so one benchmark's heap and servers cannot skew the next). Exits non-zero if any failed.
 * Pass file names to run only those: `npm run bench -- embedded-mongo`.
 */
const benchDir = __dirname;
const only = process.argv.slice(2).map((name) => name.replace(/\.ts$/, ''));
const files = readdirSync(benchDir)
  .filter((file) => file.endsWith('.ts') && file !== path.basename(__filename))
  .filter((file) => only.length === 0 || only.includes(file.replace(/\.ts$/, '')))
  .sort();

let failed = 0;
for (const file of files) {
  process.stdout.write(`\n=== bench/${file} ===\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(benchDir, file)], { stdio: 'inherit' });
  if (result.status !== 0) {
    failed++;
    process.stderr.write(`bench/${file} failed (exit ${String(result.status ?? result.signal)})\n`);
  }
}
if (files.length === 0) process.stderr.write('no benchmark files matched\n');
process.exitCode = failed > 0 || files.length === 0 ? 1 : 0;
