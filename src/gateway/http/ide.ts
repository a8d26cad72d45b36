import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { setPageHeaders } from './page-headers';

/**
 * docjoin's offline IDE: GraphiQL bundled from npm into ide/dist (ide/build-ide.ts) and served from this
 * process, so it works with no internet. The page is at `/ide` (and at `/graphql` with landingPage
 * "ide"); its scripts, styles, fonts and Monaco workers at `/ide/assets/…`.
 */

export const IDE_PATH = '/ide';
const ASSETS_PATH = `${IDE_PATH}/assets`;
/** ide/dist at the package root: the same place from src/ (tsx) and from dist/ (the built package). */
export const IDE_ASSETS_DIR = resolve(__dirname, '../../../ide/dist');

export interface IdePageOptions {
  /** Where the IDE sends operations (same origin). */
  readonly endpoint: string;
  /** The operation the editor opens with the first time. */
  readonly defaultQuery: string;
  /**
   * An `x-docjoin-strategy` value the cost panel's hint shows, naming a field of the served schema;
   * undefined leaves the strategy header out of the hint (no field has a choice, or the header is off).
   */
  readonly strategyExample: string | undefined;
}

/**
 * Runs on the Sandbox page at `/graphql` (landing-page.ts): styles its link to the IDE and moves to the
 * IDE when Sandbox cannot load. Built from ide/src/sandbox-fallback.ts.
 */
export const SANDBOX_FALLBACK_SCRIPT = `${ASSETS_PATH}/sandbox-fallback.js`;

/** The IDE's HTML page, or a page saying how to build the IDE when ide/dist is missing. */
export function idePage(options: IdePageOptions): string {
  if (!existsSync(resolve(IDE_ASSETS_DIR, 'main.js'))) {
    return `<!doctype html><meta charset="utf-8"><title>docjoin IDE</title><p>The IDE is not built: run <code>npm run build:ide</code> in the docjoin repository (npm start and npm test run it; the package ships it built), then reload.</p>`;
  }
  const config = { endpoint: options.endpoint, assets: ASSETS_PATH, defaultQuery: options.defaultQuery, strategyExample: options.strategyExample };
  // `<` escaped, so that no value can close the script element.
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  const inline = `window.docjoinIde = ${json};`;
  // Scripts from this server and the one inline above, nothing else: a value reflected into the page could run no script of its own.
  const policy = `script-src 'self' 'sha256-${createHash('sha256').update(inline).digest('base64')}'; object-src 'none'; base-uri 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="content-security-policy" content="${policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>docjoin IDE</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${ASSETS_PATH}/main.css">
</head>
<body>
<div id="graphiql">Loading the IDE…</div>
<script>${inline}</script>
<script type="module" src="${ASSETS_PATH}/main.js"></script>
</body>
</html>
`;
}

/** Answers `/ide` and `/ide/assets/…`; resolves false for any other path. */
export function createIdeRoutes(options: IdePageOptions): (request: IncomingMessage, response: ServerResponse, path: string) => Promise<boolean> {
  // Loaded only here: a production gateway (landingPage "none") never carries serve-static and its MIME table.
  const serveStatic = require('serve-static') as typeof import('serve-static');
  // No redirect of a folder: serve-static would build its Location from the path cut below, outside /ide.
  const assets = serveStatic(IDE_ASSETS_DIR, { index: false, redirect: false, fallthrough: false, maxAge: '1h' });
  const page = idePage(options);
  return (request, response, path) => {
    if ((path === IDE_PATH || path === `${IDE_PATH}/`) && (request.method === 'GET' || request.method === 'HEAD')) {
      setPageHeaders(response);
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(request.method === 'HEAD' ? undefined : page);
      return Promise.resolve(true);
    }
    if (!path.startsWith(`${ASSETS_PATH}/`)) return Promise.resolve(false);
    setPageHeaders(response);
    // serve-static reads the path from request.url: the asset's, whatever form the target took (`/ide/assets/x`, `http://host/ide/assets/x`).
    request.url = path.slice(ASSETS_PATH.length);
    return new Promise((done) => {
      assets(request, response, (error?: unknown) => {
        const status = (error as { status?: number } | undefined)?.status ?? 500;
        response.statusCode = status;
        response.setHeader('content-type', 'text/plain; charset=utf-8');
        response.end(status === 404 ? 'no such IDE asset' : 'the IDE asset could not be read');
        done(true);
      });
      response.once('finish', () => done(true));
    });
  };
}
