/**
 * How long the fault scenarios run: a short form in `npm test` (CI), a soak with FAULTS_SOAK=1
 * (`npm run test:faults:soak`). Memory growth is judged between the first and the last 10 s, so a run
 * lasts at least 30 s.
 */
const soak = process.env.FAULTS_SOAK === '1';

export const FAULT_RUN = {
  soak,
  loadMs: Number(process.env.FAULTS_LOAD_MS ?? (soak ? 300_000 : 30_000)),
  /** The same load first, unmeasured: memory grows while code warms up and caches fill. */
  warmupMs: 10_000,
};

/** Prints a scenario's figures, one line, so a CI log shows them whether it passes or fails. */
export function report(scenario: string, values: Readonly<Record<string, unknown>>): void {
  process.stdout.write(`faults: ${scenario}: ${JSON.stringify(values)}\n`);
}
