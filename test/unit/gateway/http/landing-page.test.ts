import type { GraphQLServerContext } from '@apollo/server';
import { landingPagePlugin, withIdeLink } from '../../../../src/gateway/http/landing-page';

/** Apollo's Sandbox page as the gateway serves it at `/graphql`, one render per call. */
async function sandboxPageRenderer(): Promise<() => Promise<string>> {
  const plugin = landingPagePlugin('sandbox', { endpoint: '/graphql', defaultQuery: '{ __typename }', strategyExample: undefined });
  const listener = await plugin.serverWillStart!({} as GraphQLServerContext);
  const page = await listener!.renderLandingPage!();
  return async () => (typeof page.html === 'string' ? page.html : page.html());
}

const LINK = `<a href="/ide" id="docjoin-ide-link">Offline? Open docjoin's IDE</a>`;

describe('withIdeLink', () => {
  it("gives the IDE's script the nonce of Apollo's Content-Security-Policy, new on every render, and adds nothing inline", async () => {
    const render = await sandboxPageRenderer();
    const [first, second] = [await render(), await render()];
    const nonce = (html: string) => /'nonce-([0-9a-f]+)'/.exec(html)![1]!;
    expect(nonce(first)).not.toBe(nonce(second));
    for (const html of [first, second]) {
      expect(html).toContain(`${LINK}\n<script src="/ide/assets/sandbox-fallback.js" nonce="${nonce(html)}"></script>\n</body>`);
      // What the policy allows: every script carries the nonce, and no element a style attribute.
      expect(html.match(/<script(?![^>]*\snonce="[0-9a-f]+")/g)).toBeNull();
      expect(html).not.toMatch(/\sstyle=/);
    }
  });

  it('adds the script without a nonce to a page without a policy, before </body> or at the end', () => {
    const script = '<script src="/ide/assets/sandbox-fallback.js"></script>\n';
    expect(withIdeLink('<html><body><p>Sandbox</p></body></html>')).toBe(`<html><body><p>Sandbox</p>${LINK}\n${script}</body></html>`);
    expect(withIdeLink('<p>Sandbox</p>')).toBe(`<p>Sandbox</p>${LINK}\n${script}`);
  });

  it('copies no nonce that could break out of the attribute, nor one outside the policy', () => {
    const hostile = `<meta http-equiv="Content-Security-Policy" content="script-src 'nonce-a&quot;b' 'self'"><body></body>`;
    expect(withIdeLink(hostile)).toContain('<script src="/ide/assets/sandbox-fallback.js"></script>');
    const elsewhere = `<meta name="description" content="'nonce-abc'"><body></body>`;
    expect(withIdeLink(elsewhere)).toContain('<script src="/ide/assets/sandbox-fallback.js"></script>');
  });
});
