import { draftedConfigFile } from '../../../../src/cli/init/drafted-project-template';

describe('draftedConfigFile', () => {
  test('keeps a URI without secrets, and maps DateTime when the schema uses it', () => {
    const config = draftedConfigFile({ dbName: 'blog', mongoUri: 'mongodb://localhost:27017/?directConnection=true', usesDateTime: true });
    expect(config).toContain("import { defineConfig, DateTimeScalar } from 'docjoin';");
    expect(config).toContain("  mongodb: { uri: 'mongodb://localhost:27017/?directConnection=true', db: 'blog' },\n");
    expect(config).toContain('  resolvers: { DateTime: DateTimeScalar },\n');
  });

  test('never writes a URI with credentials or secret options: only its redacted form, in a comment', () => {
    for (const uri of ['mongodb://reader:s3cret-pw@db.example.net/blog', 'mongodb://db.example.net/?tlsCertificateKeyFilePassword=s3cret-pw']) {
      const config = draftedConfigFile({ dbName: 'blog', mongoUri: uri, usesDateTime: false });
      expect(config).not.toContain('s3cret-pw');
      expect(config).toContain("  mongodb: { db: 'blog' },\n");
      expect(config).toMatch(/\/\/ serve with MONGODB_URI set to it \(mongodb:\/\/.*\*\*\*.*\)\.\n/);
      expect(config).not.toContain('DateTime');
    }
  });
});
