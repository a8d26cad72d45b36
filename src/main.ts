/**
 * `npm start`: the same as `docjoin serve` (src/cli/serve/run-serve.ts), so `npm start -- --port 5000`
 * takes serve's flags. The server itself starts in src/server/start-server.ts.
 */
import { runDocjoinCli } from './cli/docjoin';

runDocjoinCli(['serve', ...process.argv.slice(2)], process.env, { out: process.stdout, err: process.stderr }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`docjoin: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
