#!/usr/bin/env node
// `npx docjoin …`: the package's "bin".
import { redactSecrets } from '../../observability/redact-secrets';
import { runDocjoinCli } from '../docjoin';

runDocjoinCli(process.argv.slice(2), process.env, { out: process.stdout, err: process.stderr }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(redactSecrets(`docjoin: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`, [process.env.MONGODB_URI]));
    process.exitCode = 1;
  },
);
