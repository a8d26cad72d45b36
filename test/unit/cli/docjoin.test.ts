import { DOCJOIN_USAGE, runDocjoinCli } from '../../../src/cli/docjoin';
import { SEED_USAGE } from '../../../src/seed/cli-args';
import { RECONCILE_USAGE } from '../../../src/reconcile/cli-args';
import { SERVE_USAGE } from '../../../src/cli/serve/serve-args';
import { captureIo } from './capture-io';

describe('docjoin <command>', () => {
  it('--help lists every command', async () => {
    const { io, out } = captureIo();
    expect(await runDocjoinCli(['--help'], {}, io)).toBe(0);
    expect(out()).toBe(`${DOCJOIN_USAGE}\n`);
    for (const command of ['serve', 'seed', 'explain', 'reconcile']) expect(DOCJOIN_USAGE).toMatch(new RegExp(`^  ${command} `, 'm'));
  });

  it.each([
    [['serve', '--help'], SERVE_USAGE],
    [['seed', '-h'], SEED_USAGE],
    [['reconcile', '--help'], RECONCILE_USAGE],
  ])('%j hands the arguments to the command', async (argv, usage) => {
    const { io, out } = captureIo();
    expect(await runDocjoinCli(argv, {}, io)).toBe(0);
    expect(out()).toBe(`${usage}\n`);
  });

  it.each([
    [[], 'docjoin: no command given; the commands are serve, seed, explain, reconcile (try docjoin --help)'],
    [['start'], 'docjoin: unknown command "start"; the commands are serve, seed, explain, reconcile (try docjoin --help)'],
    [['toString'], 'docjoin: unknown command "toString"; the commands are serve, seed, explain, reconcile (try docjoin --help)'],
    [['seed', '--scale', 'lots'], 'seed: --scale must be a positive number, got "lots"'],
    [['reconcile', '--batch-size', '0'], 'reconcile: --batch-size must be an integer from 1 to 100000, got "0"'],
    [['seed'], expect.stringMatching(/^seed: No MongoDB to seed: pass --mongo-uri URI or set MONGODB_URI\. /)],
    [['serve', '--port', '-1'], 'serve: --port must be an integer from 0 to 65535, got "-1"'],
  ])('%j exits 2 with one line on stderr', async (argv, line) => {
    const { io, err } = captureIo();
    expect(await runDocjoinCli(argv, { MONGODB_URI: argv[0] === 'seed' && argv.length === 1 ? '' : 'mongodb://localhost:1' }, io)).toBe(2);
    expect(err().split('\n')).toEqual([line, '']);
  });
});
