import { draftedConfigFile } from '../../../../src/cli/init/drafted-project-template';

describe('draftedConfigFile', () => {
  test('keeps a URI without secrets, and needs no resolver for DateTime (docjoin binds it)', () => {
    const config = draftedConfigFile({ dbName: 'blog', mongoUri: 'mongodb://localhost:27017/?directConnection=true' });
    expect(config).toContain("import { defineConfig } from 'docjoin';");
    expect(config).toContain("  mongodb: { uri: 'mongodb://localhost:27017/?directConnection=true', db: 'blog' },\n");
    expect(config).not.toContain('resolvers');
    expect(config).not.toContain('DateTime');
  });

  test('never writes a URI with credentials or secret options: only its redacted form, in a comment', () => {
    for (const uri of ['mongodb://reader:s3cret-pw@db.example.net/blog', 'mongodb://db.example.net/?tlsCertificateKeyFilePassword=s3cret-pw']) {
      const config = draftedConfigFile({ dbName: 'blog', mongoUri: uri });
      expect(config).not.toContain('s3cret-pw');
      expect(config).toContain("  mongodb: { db: 'blog' },\n");
      expect(config).toMatch(/\/\/ serve with MONGODB_URI set to it \(mongodb:\/\/.*\*\*\*.*\)\.\n/);
      expect(config).not.toContain('DateTime');
    }
  });
});
