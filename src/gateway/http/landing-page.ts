import type { ApolloServerPlugin, BaseContext } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { IDE_PATH, idePage, SANDBOX_FALLBACK_SCRIPT, type IdePageOptions } from './ide';

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

function sandboxWithIdeLink(): ApolloServerPlugin<BaseContext> {
  const sandbox = ApolloServerPluginLandingPageLocalDefault({ embed: true, footer: false });
  return {
    async serverWillStart(service) {
      const listener = await sandbox.serverWillStart!(service);
      return {
        async renderLandingPage() {
          const page = await listener!.renderLandingPage!();
          // Apollo renders its page for each request, each time with a new nonce.
          return { html: async () => withIdeLink(typeof page.html === 'string' ? page.html : await page.html()) };
        },
      };
    },
  };
}

/**
 * Adds the link to docjoin's IDE to Apollo's Sandbox page, with the script that styles it and moves to
 * the IDE offline. The page's Content-Security-Policy allows no inline script and no style attribute, so
 * the script is a same-origin file (`script-src 'self'`), which also carries the page's nonce if it has
 * one, and styles the link from there.
 */
export function withIdeLink(html: string): string {
  const nonce = contentSecurityPolicyNonce(html);
  const link = `<a href="${IDE_PATH}" id="docjoin-ide-link">Offline? Open docjoin's IDE</a>
<script src="${SANDBOX_FALLBACK_SCRIPT}"${nonce === undefined ? '' : ` nonce="${nonce}"`}></script>
`;
  const end = html.lastIndexOf('</body>');
  return end === -1 ? `${html}${link}` : `${html.slice(0, end)}${link}${html.slice(end)}`;
}

/** The nonce the page's Content-Security-Policy meta element allows, if any. */
function contentSecurityPolicyNonce(html: string): string | undefined {
  const policy = /<meta\s[^>]*http-equiv=["']?content-security-policy["']?[^>]*>/i.exec(html)?.[0];
  return policy && /'nonce-([A-Za-z0-9+/=_-]+)'/.exec(policy)?.[1];
}
