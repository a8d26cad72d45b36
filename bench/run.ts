import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * `npm run bench`: runs every other `*.ts` file in bench/, one after another, each in its own
 * process (so one benchmark's heap and servers cannot skew the next). Exits non-zero if any failed.
 * Pass names to run only those: `npm run bench -- embedded-mongo`. A folder `bench/<name>/` with a
 * `run-<name>.ts` is a benchmark too long for the default run (bench/peers takes about 9 minutes): it
 * runs only when named, `npm run bench -- peers`.
 */
const benchDir = __dirname;
const only = process.argv.slice(2).map((name) => name.replace(/\.ts$/, '').replace(/\/$/, ''));
const named = (name: string): boolean => only.includes(name);
const defaultBenches = readdirSync(benchDir)
  .filter((file) => file.endsWith('.ts') && file !== path.basename(__filename))
  .map((file) => ({ name: file.replace(/\.ts$/, ''), file }))
  .filter((bench) => only.length === 0 || named(bench.name));
const namedOnlyBenches = readdirSync(benchDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(path.join(benchDir, entry.name, `run-${entry.name}.ts`)))
  .map((entry) => ({ name: entry.name, file: path.join(entry.name, `run-${entry.name}.ts`) }))
  .filter((bench) => named(bench.name));
const benches = [...defaultBenches, ...namedOnlyBenches].sort((a, b) => a.name.localeCompare(b.name));

let failed = 0;
for (const { file } of benches) {
  process.stdout.write(`\n=== bench/${file} ===\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', path.join(benchDir, file)], { stdio: 'inherit' });
  if (result.status !== 0) {
    failed++;
    process.stderr.write(`bench/${file} failed (exit ${String(result.status ?? result.signal)})\n`);
  }
}
if (benches.length === 0) process.stderr.write('no benchmark files matched\n');
process.exitCode = failed > 0 || benches.length === 0 ? 1 : 0;
