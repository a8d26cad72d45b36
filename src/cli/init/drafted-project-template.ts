import { redactUri } from '../../observability/redact-secrets';

/**
 * The config `docjoin init --from-mongo` writes beside its drafted schema: the database it was drafted
 * from, and the URI only when the URI holds no secret (a config file gets committed); otherwise the
 * comment shows it with its secrets hidden, to be given as MONGODB_URI.
 */
export function draftedConfigFile(options: { readonly dbName: string; readonly mongoUri: string }): string {
  const redacted = redactUri(options.mongoUri);
  const mongodb = configKeepsUri(options.mongoUri)
    ? `  // The database the schema was drafted from; MONGODB_URI, when set, wins over this uri.
  mongodb: { uri: ${quote(options.mongoUri)}, db: ${quote(options.dbName)} },`
    : `  // The database the schema was drafted from. Its URI holds credentials, so it is not written here:
  // serve with MONGODB_URI set to it (${redacted.replace(/\s+/g, ' ')}).
  mongodb: { db: ${quote(options.dbName)} },`;
  return `import { defineConfig } from 'docjoin';

// docjoin's project config, drafted by \`docjoin init --from-mongo\`: \`docjoin serve\`, \`explain\`, \`reconcile\`
// and \`codegen\` read it. Check the "# guess:" comments in the schema before serving it.
export default defineConfig({
  // SDL files or folders of .graphql files, relative to this file.
  schema: 'schema',
${mongodb}
  // server: { port: 4000, cors: { origin: 'http://localhost:3000' } },
});
`;
}

/** Whether the config may hold `uri` as it is: it has no credentials and no secret option. */
export function configKeepsUri(uri: string): boolean {
  return redactUri(uri) === uri;
}

/** A JavaScript string literal. */
function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}
