/** The median time of `runs` runs of `command` (milliseconds), after one untimed run that warms the connection and the server. */
export async function medianTimeMs(command: () => Promise<unknown>, runs: number): Promise<number> {
  await command();
  const times: number[] = [];
  for (let run = 0; run < runs; run++) times.push(await timeMs(command));
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)]!;
}

/**
 * The median of `runs` paired differences, `slower`'s time less `faster`'s (milliseconds), after one
 * untimed run of each: timed back to back, in turn first, so a drift of the machine or the network
 * (another process, a busy server) weighs on both sides of each pair alike.
 */
export async function medianDifferenceMs(slower: () => Promise<unknown>, faster: () => Promise<unknown>, runs: number): Promise<number> {
  await faster();
  await slower();
  const differences: number[] = [];
  for (let run = 0; run < runs; run++) {
    const [first, second] = run % 2 === 0 ? [faster, slower] : [slower, faster];
    const firstMs = await timeMs(first);
    const secondMs = await timeMs(second);
    differences.push(first === slower ? firstMs - secondMs : secondMs - firstMs);
  }
  differences.sort((a, b) => a - b);
  return differences[Math.floor(runs / 2)]!;
}

async function timeMs(command: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await command();
  return Number(process.hrtime.bigint() - started) / 1e6;
}
