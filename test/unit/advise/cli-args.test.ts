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
      project: { configPath: undefined, schemaPaths: undefined },
    });
  });

  it('--assumed-costs prices at fixed costs; no workload flag reads the config’s', () => {
    expect(parseAdviseArgs(['--assumed-costs'], {})).toMatchObject({ kind: 'advise', assumedCosts: true, verbose: false, workload: 'config' });
    expect(parseAdviseArgs(['--workload-collection', 'docjoin_workload'], {})).toMatchObject({ workload: { collection: 'docjoin_workload' } });
  });

  it.each([
    [['--workload', 'a', '--workload-collection', 'b'], '--workload and --workload-collection name two recordings; give one'],
    [['--assumed-costs=yes'], /--assumed-costs/],
    [['--sample', '0'], /--sample/],
  ])('%j is refused: %s', (argv, message) => {
    const parsed = parseAdviseArgs(argv, {});
    expect(parsed).toMatchObject({ kind: 'usage-error' });
    expect((parsed as { message: string }).message).toMatch(message);
  });
});
