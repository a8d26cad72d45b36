/**
 * Runs on the Apollo Sandbox page the gateway serves at /graphql (src/gateway/http/landing-page.ts): puts
 * its link to the IDE in a corner, and moves to the IDE when Sandbox's script could not load (offline).
 * The page's Content-Security-Policy refuses inline scripts and style attributes, but allows this
 * same-origin file and the styles it sets.
 */
const link = document.getElementById('docjoin-ide-link');
if (link instanceof HTMLAnchorElement) {
  Object.assign(link.style, {
    position: 'fixed',
    right: '12px',
    bottom: '12px',
    zIndex: '10',
    padding: '6px 10px',
    borderRadius: '6px',
    background: '#1b2240',
    color: '#fff',
    font: '13px sans-serif',
    textDecoration: 'none',
  });
  window.addEventListener('load', () => {
    if (!('EmbeddedSandbox' in window)) location.replace(link.href);
  });
}

export {};
