#!/usr/bin/env node
// `npx docjoin …`: the package's "bin".
import { redactSecrets } from '../../observability/redact-secrets';
import { runDocjoinCli } from '../docjoin';

// A reader that stops early (`docjoin explain … | head -3`) closes the pipe: stop quietly, as Unix tools do.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
});

// A command that failed has said why: it ends now, not when a socket the MongoDB driver still holds
// open (a connection attempt the URI lets wait a minute) times out.
runDocjoinCli(process.argv.slice(2), process.env, { out: process.stdout, err: process.stderr }).then(
  (code) => {
    process.exitCode = code;
    if (code !== 0) process.exit(code);
  },
  (error: unknown) => {
    process.stderr.write(redactSecrets(`docjoin: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`, [process.env.MONGODB_URI]));
    process.exit(1);
  },
);
