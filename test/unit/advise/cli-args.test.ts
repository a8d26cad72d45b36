import { parseAdviseArgs } from '../../../src/advise/cli-args';

describe('parseAdviseArgs', () => {
  it('reads the workload file, the sample size and the switches; measured costs by default', () => {
    expect(parseAdviseArgs(['--workload', 'w.jsonl', '--sample', '500', '--json', 'a.json', '--verbose'], {})).toEqual({
      kind: 'advise',
      mongoUri: undefined,
      db: undefined,
      workload: { file: 'w.jsonl' },
      sampleSize: 500,
      json: 'a.json',
      verbose: true,
      assumedCosts: false,
      latencyMs: undefined,
      readsOnly: false,
      project: { configPath: undefined, schemaPaths: undefined },
    });
  });

  it('--assumed-costs prices at fixed costs; no workload flag reads the config’s', () => {
    expect(parseAdviseArgs(['--assumed-costs'], {})).toMatchObject({ kind: 'advise', assumedCosts: true, verbose: false, workload: 'config' });
    expect(parseAdviseArgs(['--workload-collection', 'docjoin_workload'], {})).toMatchObject({ workload: { collection: 'docjoin_workload' } });
  });

  it('--latency-ms prices lookups for another deployment; measured without it', () => {
    expect(parseAdviseArgs(['--latency-ms', '12.5'], {})).toMatchObject({ kind: 'advise', latencyMs: 12.5 });
    expect(parseAdviseArgs([], {})).toMatchObject({ kind: 'advise', latencyMs: undefined });
  });

  it('--reads-only limits the advice to how reads are served', () => {
    expect(parseAdviseArgs(['--reads-only'], {})).toMatchObject({ kind: 'advise', readsOnly: true });
  });

  it.each([
    [['--workload', 'a', '--workload-collection', 'b'], '--workload and --workload-collection name two recordings; give one'],
    [['--assumed-costs=yes'], /--assumed-costs/],
    [['--sample', '0'], /--sample/],
    [['--latency-ms', 'fast'], '--latency-ms takes milliseconds between 0 and 10000, got "fast"'],
    [['--latency-ms', '-1'], '--latency-ms takes milliseconds between 0 and 10000, got "-1"'],
  ])('%j is refused: %s', (argv, message) => {
    const parsed = parseAdviseArgs(argv, {});
    expect(parsed).toMatchObject({ kind: 'usage-error' });
    expect((parsed as { message: string }).message).toMatch(message);
  });
});
