#!/usr/bin/env node
// `npx docjoin …`: runs the TypeScript entry (src/cli/docjoin.ts) through tsx, a runtime dependency,
// so there is no build step. tsx's CommonJS hook lets require() load .ts files in this process.
'use strict';
const path = require('node:path');
require('tsx/cjs/api').register();
const { runDocjoinCli } = require(path.join(__dirname, '..', 'docjoin.ts'));

runDocjoinCli(process.argv.slice(2), process.env, { out: process.stdout, err: process.stderr }).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    process.stderr.write(`docjoin: ${error instanceof Error ? (error.stack || error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
