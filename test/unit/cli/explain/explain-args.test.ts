import { parseExplainArgs } from '../../../../src/cli/explain/explain-args';

describe('parseExplainArgs', () => {
  it('reads the operation, its variables and strategies; no run by default', () => {
    expect(parseExplainArgs(['{ books { name } }', '--variables', '{"first": 5}', '--strategy', 'Book.authors=join'])).toEqual({
      kind: 'explain',
      operation: { text: '{ books { name } }' },
      operationName: undefined,
      variables: { first: 5 },
      strategy: 'Book.authors=join',
      run: false,
      plan: false,
      mongoUri: undefined,
      db: undefined,
      seedScale: undefined,
      project: { configPath: undefined, schemaPaths: undefined },
    });
  });

  it('reads --file, --operation and, with --run, where to run', () => {
    expect(parseExplainArgs(['--file', 'ops.graphql', '--operation=Books', '--run', '--mongo-uri', 'mongodb://x', '--db', 'shop'])).toMatchObject({
      kind: 'explain',
      operation: { file: 'ops.graphql' },
      operationName: 'Books',
      variables: {},
      run: true,
      mongoUri: 'mongodb://x',
      db: 'shop',
    });
    expect(parseExplainArgs(['{ a }', '--run', '--seed-scale', '0.1'])).toMatchObject({ run: true, seedScale: '0.1' });
    expect(parseExplainArgs(['{ a }', '--plan'])).toMatchObject({ run: false, plan: true, role: undefined, claims: undefined });
    expect(parseExplainArgs(['{ a }', '--role', 'customer', '--claims', '{"sub": "c1"}'])).toMatchObject({ role: 'customer', claims: { sub: 'c1' } });
  });

  it('--help wins', () => {
    expect(parseExplainArgs(['--bogus', '-h'])).toEqual({ kind: 'help' });
  });

  it.each([
    [[], "no operation: pass it as an argument in quotes, e.g. docjoin explain '{ rootField { field } }' with your schema's fields, or use --file F"],
    [['{ a }', '--file', 'x.graphql'], 'give the operation either as an argument or with --file, not both'],
    [['  '], 'the operation is empty'],
    [['{ a }', '{ b }'], 'unexpected argument "{ b }" (options are --file, --operation, --variables, --strategy, --run, --plan, --role, --claims, --mongo-uri, --db, --seed-scale, --config, --schema; try --help)'],
    [['{ a }', '--variables', '[1]'], `--variables must be a JSON object, e.g. '{"first": 5}', got [1]`],
    [['{ a }', '--variables', 'first=5'], expect.stringMatching(/^--variables must be a JSON object, e\.g\. '\{"first": 5\}': Unexpected token/)],
    [['{ a }', '--mongo-uri', 'mongodb://x'], '--mongo-uri only applies with --run'],
    [['{ a }', '--seed-scale', '2'], '--seed-scale only applies with --run'],
    [['{ a }', '--run', '--mongo-uri', 'mongodb://x', '--seed-scale', '2'], '--seed-scale only applies to the embedded server; leave out --mongo-uri'],
    [['{ a }', '--strategy'], '--strategy needs a value, e.g. --strategy Book.authors=join'],
    [['{ a }', '--run=yes'], '--run takes no value'],
    [['{ a }', '--claims', '{"sub": "x"}'], '--claims only applies with --role: name the role whose rules compare them'],
    [['{ a }', '--role', ' '], '--role needs a role name, e.g. --role customer'],
    [['{ a }', '--role', 'customer', '--claims', '"x"'], `--claims must be a JSON object, e.g. '{"sub": "…"}', got "x"`],
  ])('%j is a one-line usage error', (argv, message) => {
    expect(parseExplainArgs(argv)).toEqual({ kind: 'usage-error', message });
  });
});
