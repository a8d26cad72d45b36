import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { IDE_PATH, idePage, type IdePageOptions } from './ide';

/**
 * What a browser sees at `/graphql`: Apollo Sandbox (loaded from Apollo's CDN, with a link to docjoin's
 * IDE, which it falls back to offline), docjoin's IDE itself (GraphiQL served by docjoin, no internet
 * needed), or nothing. Outside `none` the IDE is also at `/ide`.
 */
export type LandingPage = 'sandbox' | 'ide' | 'none';
export const LANDING_PAGES: readonly LandingPage[] = ['sandbox', 'ide', 'none'];

/**
 * What a browser GET of `/graphql` shows. `sandbox`: Apollo Sandbox, which loads from Apollo's CDN, with
 * a link to docjoin's IDE; when its script cannot load (no internet), the page moves to the IDE.
 * `ide`: docjoin's IDE itself. `none`: nothing.
 */
export function landingPagePlugin(landingPage: LandingPage, ide: IdePageOptions): ApolloServerPlugin<BaseContext> {
  switch (landingPage) {
    case 'none':
      return ApolloServerPluginLandingPageDisabled();
    case 'ide':
      return { serverWillStart: async () => ({ renderLandingPage: async () => ({ html: idePage(ide) }) }) };
    case 'sandbox':
      return sandboxWithIdeLink();
    default: {
      const never: never = landingPage;
      throw new Error(`unknown landing page ${String(never)}`);
    }
  }
}

const IDE_LINK = `
<a href="${IDE_PATH}" id="docjoin-ide-link" style="position:fixed;right:12px;bottom:12px;z-index:10;padding:6px 10px;border-radius:6px;background:#1b2240;color:#fff;font:13px sans-serif;text-decoration:none">Offline? Open docjoin's IDE</a>
<script>window.addEventListener('load', function () { if (!window.EmbeddedSandbox) location.replace(${JSON.stringify(IDE_PATH)}); });</script>
`;

function sandboxWithIdeLink(): ApolloServerPlugin<BaseContext> {
  const sandbox = ApolloServerPluginLandingPageLocalDefault({ embed: true, footer: false });
  return {
    async serverWillStart(service) {
      const listener = await sandbox.serverWillStart!(service);
      return {
        async renderLandingPage() {
          const page = await listener!.renderLandingPage!();
          const html = typeof page.html === 'string' ? page.html : await page.html();
          return { html: html.includes('</body>') ? html.replace('</body>', `${IDE_LINK}</body>`) : `${html}${IDE_LINK}` };
        },
      };
    },
  };
}
