import { parseMigrateArgs } from '../../../src/migrate/migrate-args';

describe('parseMigrateArgs', () => {
  const project = { configPath: undefined, schemaPaths: undefined };

  it('reads a widening, an advice and a drop', () => {
    expect(parseMigrateArgs(['--widen', 'Book.authors', '--fields', 'thumbnailUrl, name,thumbnailUrl', '--write', '--batch-size', '2'], {})).toEqual({
      kind: 'migrate',
      request: { kind: 'widen', coordinate: 'Book.authors', fields: ['thumbnailUrl', 'name'] },
      write: true,
      deployed: false,
      batchSize: 2,
      mongoUri: undefined,
      db: undefined,
      project,
    });
    expect(parseMigrateArgs(['--advice', 'advice.json', '--field', 'Book.authors'], {})).toMatchObject({ request: { kind: 'advice', file: 'advice.json', coordinate: 'Book.authors' }, write: false, batchSize: 500 });
    expect(parseMigrateArgs(['--drop-snapshot', 'Book.authors'], {})).toMatchObject({ request: { kind: 'drop-snapshot', coordinate: 'Book.authors' } });
  });

  it('reads an added snapshot, counter and bounded array', () => {
    expect(parseMigrateArgs(['--add-snapshot', 'Book.publisher', '--fields', 'name'], {})).toMatchObject({ request: { kind: 'add-snapshot', coordinate: 'Book.publisher', fields: ['name'], path: undefined } });
    expect(parseMigrateArgs(['--add-snapshot', 'Book.publisher', '--fields', 'name', '--path', 'pub'], {})).toMatchObject({ request: { kind: 'add-snapshot', path: 'pub' } });
    expect(parseMigrateArgs(['--add-counter', 'Post.commentCount', '--of', 'Post.comments'], {})).toMatchObject({ request: { kind: 'add-counter', coordinate: 'Post.commentCount', of: 'Post.comments' }, deployed: false });
    expect(parseMigrateArgs(['--add-counter', 'Post.commentCount', '--of', 'Post.comments', '--write', '--deployed'], {})).toMatchObject({ deployed: true, write: true });
    expect(parseMigrateArgs(['--add-total', 'Product.ratingTotal', '--of', 'Product.reviews', '--sum', 'rating', '--write', '--deployed'], {})).toMatchObject({
      request: { kind: 'add-total', coordinate: 'Product.ratingTotal', of: 'Product.reviews', sum: 'rating' },
      deployed: true,
    });
    expect(parseMigrateArgs(['--add-bounded-array', 'Post.recent', '--of', 'Post.comments', '--limit', '3'], {})).toMatchObject({
      request: { kind: 'add-bounded-array', coordinate: 'Post.recent', of: 'Post.comments', limit: 3 },
    });
  });

  it.each([
    [[], 'say what to migrate: --widen Type.field --fields a,b, --add-snapshot Type.field --fields a,b, --add-counter Type.field --of Type.list, --add-total Type.field --of Type.list --sum field, --add-bounded-array Type.field --of Type.list --limit N, --advice FILE --field Type.field, or --drop-snapshot Type.field'],
    [['--widen', 'Book.authors', '--drop-snapshot', 'Book.authors'], '--widen and --drop-snapshot cannot be combined; migrate one change at a time'],
    [['--widen', 'Book.authors'], '--widen needs --fields a,b: the fields to add to the snapshot'],
    [['--widen', 'Book.authors', '--fields', ' , '], '--fields must be field names separated by commas, e.g. --fields name,thumbnailUrl, got " , "'],
    [['--drop-snapshot', 'Book.authors', '--fields', 'name'], '--fields goes with --widen or --add-snapshot, not --drop-snapshot'],
    [['--advice', 'advice.json'], '--advice needs --field Type.field: the field whose advice to apply'],
    [['--drop-snapshot', 'authors'], '--drop-snapshot must be Type.field, e.g. --drop-snapshot Book.authors, got "authors"'],
    [['--drop-snapshot', 'Book.authors', '--batch-size', '0'], '--batch-size must be an integer from 1 to 100000, got "0"'],
    [['--add-counter', 'Post.commentCount'], '--add-counter needs --of Type.list: the list relation the new field derives from'],
    [['--add-counter', 'Post.commentCount', '--of', 'comments'], '--of must be Type.field, e.g. --of Post.comments, got "comments"'],
    [['--add-counter', 'Post.commentCount', '--of', 'Post.comments', '--limit', '3'], '--limit goes with --add-bounded-array, not --add-counter'],
    [['--add-total', 'Product.ratingTotal', '--of', 'Product.reviews'], '--add-total needs --sum field: the field of the children the total adds up'],
    [['--add-total', 'Product.ratingTotal', '--of', 'Product.reviews', '--sum', 'a.b'], '--sum must be a field name, e.g. --sum rating, got "a.b"'],
    [['--add-counter', 'Post.commentCount', '--of', 'Post.comments', '--sum', 'at'], '--sum goes with --add-total, not --add-counter'],
    [['--add-bounded-array', 'Post.recent', '--of', 'Post.comments'], '--add-bounded-array needs --limit N: how many children the parent keeps'],
    [['--add-bounded-array', 'Post.recent', '--of', 'Post.comments', '--limit', '0'], '--limit must be an integer from 1 to 1000, got "0"'],
    [['--add-snapshot', 'Book.publisher', '--fields', 'name', '--path', 'a.b'], '--path must be a top-level field name, e.g. --path publisher, got "a.b"'],
    [['--widen', 'Book.authors', '--fields', 'name', '--path', 'p'], '--path goes with --add-snapshot, not --widen'],
    [['--widen', 'Book.authors', '--fields', 'name', '--deployed'], '--deployed goes with --add-counter, --add-total or --add-bounded-array (or --advice for one of them)'],
    [['--add-counter', 'Post.commentCount', '--of', 'Post.comments', '--deployed'], '--deployed finishes the backfill, which writes: pass --write with it'],
  ])('%j is a usage error', (argv, message) => {
    expect(parseMigrateArgs(argv, {})).toEqual({ kind: 'usage-error', message });
  });
});
