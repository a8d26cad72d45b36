/** The median time of `runs` runs of `command` (milliseconds), after one untimed run that warms the connection and the server. */
export async function medianTimeMs(command: () => Promise<unknown>, runs: number): Promise<number> {
  await command();
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = process.hrtime.bigint();
    await command();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)]!;
}
