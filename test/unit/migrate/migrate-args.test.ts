import { parseMigrateArgs } from '../../../src/migrate/migrate-args';

describe('parseMigrateArgs', () => {
  const project = { configPath: undefined, schemaPaths: undefined };

  it('reads a widening, an advice and a drop', () => {
    expect(parseMigrateArgs(['--widen', 'Book.authors', '--fields', 'thumbnailUrl, name,thumbnailUrl', '--write', '--batch-size', '2'], {})).toEqual({
      kind: 'migrate',
      request: { kind: 'widen', coordinate: 'Book.authors', fields: ['thumbnailUrl', 'name'] },
      write: true,
      batchSize: 2,
      mongoUri: undefined,
      db: undefined,
      project,
    });
    expect(parseMigrateArgs(['--advice', 'advice.json', '--field', 'Book.authors'], {})).toMatchObject({ request: { kind: 'advice', file: 'advice.json', coordinate: 'Book.authors' }, write: false, batchSize: 500 });
    expect(parseMigrateArgs(['--drop-snapshot', 'Book.authors'], {})).toMatchObject({ request: { kind: 'drop-snapshot', coordinate: 'Book.authors' } });
  });

  it.each([
    [[], 'say what to migrate: --widen Type.field --fields a,b, --advice FILE --field Type.field, or --drop-snapshot Type.field'],
    [['--widen', 'Book.authors', '--drop-snapshot', 'Book.authors'], '--widen and --drop-snapshot cannot be combined; migrate one change at a time'],
    [['--widen', 'Book.authors'], '--widen needs --fields a,b: the fields to add to the snapshot'],
    [['--widen', 'Book.authors', '--fields', ' , '], '--fields must be field names separated by commas, e.g. --fields name,thumbnailUrl, got " , "'],
    [['--drop-snapshot', 'Book.authors', '--fields', 'name'], '--fields goes with --widen, not --drop-snapshot'],
    [['--advice', 'advice.json'], '--advice needs --field Type.field: the field whose advice to apply'],
    [['--drop-snapshot', 'authors'], '--drop-snapshot must be Type.field, e.g. --drop-snapshot Book.authors, got "authors"'],
    [['--drop-snapshot', 'Book.authors', '--batch-size', '0'], '--batch-size must be an integer from 1 to 100000, got "0"'],
  ])('%j is a usage error', (argv, message) => {
    expect(parseMigrateArgs(argv, {})).toEqual({ kind: 'usage-error', message });
  });
});
