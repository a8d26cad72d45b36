#!/usr/bin/env node
// `npx docjoin …`: the package's "bin".
import { redactSecrets } from '../../observability/redact-secrets';
import { runDocjoinCli } from '../docjoin';

// A reader that stops early (`docjoin explain … | head -3`) closes the pipe: stop quietly, as Unix tools do.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(0);
});

runDocjoinCli(process.argv.slice(2), process.env, { out: process.stdout, err: process.stderr }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(redactSecrets(`docjoin: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`, [process.env.MONGODB_URI]));
    process.exitCode = 1;
  },
);
