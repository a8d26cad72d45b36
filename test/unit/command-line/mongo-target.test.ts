import { readMongoTarget } from '../../../src/command-line/mongo-target';
import { parseFlags, type ParsedArgs } from '../../../src/command-line/parse-flags';

function args(argv: string[]): ParsedArgs {
  const parsed = parseFlags(argv, { flags: [{ name: '--mongo-uri', example: 'mongodb://localhost' }, { name: '--db', example: 'docjoin' }] });
  if ('kind' in parsed) throw new Error(parsed.message);
  return parsed;
}

describe('readMongoTarget', () => {
  it('takes the flags first, then MONGODB_URI / MONGODB_DB, then database "docjoin"', () => {
    expect(readMongoTarget(args(['--mongo-uri', 'mongodb://a', '--db', 'x']), { MONGODB_URI: 'mongodb://b', MONGODB_DB: 'y' })).toEqual({ mongoUri: 'mongodb://a', dbName: 'x' });
    expect(readMongoTarget(args([]), { MONGODB_URI: 'mongodb://b', MONGODB_DB: 'y' })).toEqual({ mongoUri: 'mongodb://b', dbName: 'y' });
    expect(readMongoTarget(args([]), { MONGODB_URI: '  ', MONGODB_DB: '' })).toEqual({ mongoUri: undefined, dbName: 'docjoin' });
  });

  it('names the flag or the variable the bad value came from', () => {
    expect(readMongoTarget(args(['--mongo-uri', 'localhost']), {})).toEqual({ kind: 'usage-error', message: '--mongo-uri must start with mongodb:// or mongodb+srv://, got "localhost"' });
    expect(readMongoTarget(args([]), { MONGODB_URI: 'http://x' })).toEqual({ kind: 'usage-error', message: 'MONGODB_URI must start with mongodb:// or mongodb+srv://, got "http://x"' });
    // Without a scheme nothing marks the credentials as such: whatever stands before the last @ is hidden.
    for (const uri of ['admin:s3cret@db.example.com:27017/app', 'mongodb:/admin:s3cret@db.example.com/app', 'mongodb//admin:s3cret@db.example.com/app']) {
      expect(readMongoTarget(args([]), { MONGODB_URI: uri })).toEqual({ kind: 'usage-error', message: `MONGODB_URI must start with mongodb:// or mongodb+srv://, got "***${uri.slice(uri.lastIndexOf('@'))}"` });
    }
    expect(readMongoTarget(args([]), { MONGODB_URI: 'mongodb://x', MONGODB_DB: 'a.b' })).toEqual({
      kind: 'usage-error',
      message: 'MONGODB_DB must be a MongoDB database name (1 to 63 characters, none of /\\. "$*<>:|?), got "a.b"',
    });
  });
});
