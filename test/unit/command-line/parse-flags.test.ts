import { parseFlags, wantsHelp, type ArgsSpec } from '../../../src/command-line/parse-flags';

const spec: ArgsSpec = { flags: [{ name: '--scale', example: '2' }, { name: '--fix' }], positionals: 1 };

describe('parseFlags', () => {
  it('reads values with a space or an =, switches, and positionals; the last value wins', () => {
    const parsed = parseFlags(['--scale', '2', 'op', '--fix', '--scale=3'], spec);
    expect(parsed).toEqual({ values: new Map([['--scale', '3']]), switches: new Set(['--fix']), positionals: ['op'] });
  });

  it('keeps an = inside a value, and takes a value that starts with "{" or a single dash', () => {
    expect(parseFlags(['--scale=a=b'], spec)).toMatchObject({ values: new Map([['--scale', 'a=b']]) });
    expect(parseFlags(['{ books { name } }'], spec)).toMatchObject({ positionals: ['{ books { name } }'] });
    expect(parseFlags(['--scale', '-1'], spec)).toMatchObject({ values: new Map([['--scale', '-1']]) });
  });

  it.each([
    [['--scale'], '--scale needs a value, e.g. --scale 2'],
    [['--scale', '--fix'], '--scale needs a value, e.g. --scale 2'],
    [['--fix=yes'], '--fix takes no value'],
    [['--bogus'], 'unknown option --bogus (try --help)'],
    [['-x'], 'unknown option -x (try --help)'],
    [['--sacle', '2'], 'unknown option --sacle; did you mean --scale? (try --help)'],
    [['--Fix=1'], 'unknown option --Fix; did you mean --fix? (try --help)'],
    [['one', 'two'], 'unexpected argument "two" (options are --scale, --fix; try --help)'],
    [['x'.repeat(50), 'y'.repeat(50)], `unexpected argument "${'y'.repeat(37)}..." (options are --scale, --fix; try --help)`],
  ])('%j is a one-line usage error', (argv, message) => {
    expect(parseFlags(argv, spec)).toEqual({ kind: 'usage-error', message });
  });

  it('takes no positional unless the command declares one', () => {
    expect(parseFlags(['stray'], { flags: [] })).toEqual({ kind: 'usage-error', message: 'unexpected argument "stray" (it takes no arguments; try --help)' });
  });
});

describe('wantsHelp', () => {
  it('finds -h or --help anywhere', () => {
    expect(wantsHelp(['--scale', 'x', '--help'])).toBe(true);
    expect(wantsHelp(['-h'])).toBe(true);
    expect(wantsHelp(['--helpful'])).toBe(false);
  });
});
