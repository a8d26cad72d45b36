/**
 * The one place that decides what is secret. Every text docjoin shows outside the process (/health, log
 * lines, startup errors, CLI output) passes through redactSecrets, so a URI's credentials, its secret
 * options and the AWS credentials of the environment never leave it, wherever they appear in the text.
 */

/** URI options whose values are secrets (a password, a key file's password, AWS session credentials). */
const SECRET_OPTION = /(password|secret|token|credential|authmechanismproperties)/i;

/** Environment variables the driver reads credentials from (MONGODB-AWS authentication). */
const SECRET_ENV = ['AWS_SECRET_ACCESS_KEY', 'AWS_SESSION_TOKEN'] as const;

/**
 * A MongoDB URI inside a longer text: up to whitespace, a quote, an angle bracket or a backslash (a
 * URI holds none unescaped; in a JSON log line, `\"` and `\n` end it).
 */
const URI_IN_TEXT = /mongodb(?:\+srv)?:\/\/[^\s"'`<>\\]+/gi;

/** Credentials in a URI of another scheme (`https://user:password@proxy`): up to the first `@` of its authority. */
const USER_INFO_IN_TEXT = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'`<>\\]+@/gi;

/** Shorter values are not replaced where they stand alone: a password "a" would blank every "a". */
const MIN_STANDALONE_SECRET = 4;

const MASK = '***';

/**
 * A URI safe to print or serve: the user and password become `***` (up to the last `@` before the
 * hosts, so a password with an unescaped `@` does not leak its tail), and secret options' values too.
 */
export function redactUri(uri: string): string {
  const scheme = /^mongodb(?:\+srv)?:\/\//i.exec(uri)?.[0];
  if (!scheme) return uri;
  let rest = uri.slice(scheme.length);
  const at = hostsStart(rest);
  if (at >= 0) rest = `${MASK}@${rest.slice(at + 1)}`;
  const query = rest.indexOf('?');
  if (query < 0) return `${scheme}${rest}`;
  const options = rest
    .slice(query + 1)
    .split('&')
    .map((option) => {
      const [name] = option.split('=', 1);
      return name && SECRET_OPTION.test(name) && option.includes('=') ? `${name}=${MASK}` : option;
    });
  return `${scheme}${rest.slice(0, query)}?${options.join('&')}`;
}

/**
 * `text` with every MongoDB URI in it redacted (redactUri), and every secret of `knownUris` and of the
 * environment's AWS credentials replaced wherever it stands alone (a driver error may quote an option's
 * value without its URI).
 */
export function redactSecrets(text: string, knownUris: readonly (string | undefined)[] = [], env: Readonly<Record<string, string | undefined>> = process.env): string {
  return createRedactor(knownUris, env)(text);
}

/**
 * redactSecrets with `knownUris` and `env` read once: what a log line or a stream of output passes
 * through (the secrets are worked out when it is made, not once per line).
 */
export function createRedactor(knownUris: readonly (string | undefined)[] = [], env: Readonly<Record<string, string | undefined>> = process.env): (text: string) => string {
  const secrets = new Set<string>();
  for (const uri of knownUris) if (uri) for (const secret of secretsOfUri(uri)) secrets.add(secret);
  for (const name of SECRET_ENV) if (env[name]) secrets.add(env[name]);
  // As a JSON log line writes them too (a password holding `"` or `\` is escaped there).
  for (const secret of [...secrets]) secrets.add(JSON.stringify(secret).slice(1, -1));
  // Longest first, so a secret that contains another is replaced whole.
  const standalone = [...secrets].filter((secret) => secret.length >= MIN_STANDALONE_SECRET).sort((a, b) => b.length - a.length);
  return (text) => {
    let redacted = text;
    // Both patterns need a scheme's `://`.
    if (redacted.includes('://')) {
      redacted = redacted.replace(URI_IN_TEXT, (match) => {
        // Punctuation that ends a sentence or a clause belongs to the text, not to the URI.
        const uri = match.replace(/[.,;:)\]]+$/, '');
        return `${redactUri(uri)}${match.slice(uri.length)}`;
      });
      redacted = redacted.replace(USER_INFO_IN_TEXT, (_match, scheme: string) => (/^mongodb/i.test(scheme) ? _match : `${scheme}${MASK}@`));
    }
    for (const secret of standalone) if (redacted.includes(secret)) redacted = redacted.split(secret).join(MASK);
    return redacted;
  };
}

/** The password and the secret options' values of `uri`, as written and percent-decoded. */
function secretsOfUri(uri: string): string[] {
  const scheme = /^mongodb(?:\+srv)?:\/\//i.exec(uri)?.[0];
  if (!scheme) return [];
  const rest = uri.slice(scheme.length);
  const found: string[] = [];
  const at = hostsStart(rest);
  if (at >= 0) {
    const userInfo = rest.slice(0, at);
    const colon = userInfo.indexOf(':');
    if (colon >= 0) found.push(userInfo.slice(colon + 1));
  }
  const query = rest.indexOf('?');
  if (query >= 0) {
    for (const option of rest.slice(query + 1).split('&')) {
      const equals = option.indexOf('=');
      if (equals < 0 || !SECRET_OPTION.test(option.slice(0, equals))) continue;
      const value = option.slice(equals + 1);
      found.push(value);
      // authMechanismProperties=AWS_SESSION_TOKEN:token,SERVICE_NAME:x: each property's value alone too.
      for (const property of value.split(',')) if (property.includes(':')) found.push(property.slice(property.indexOf(':') + 1));
    }
  }
  return found.flatMap((secret) => [secret, decodeOrSelf(secret)]);
}

/** The hosts follow the last `@` whose next part (up to `/`, `?` or the end) reads as a host list; -1 without credentials. */
function hostsStart(rest: string): number {
  for (let at = rest.lastIndexOf('@'); at >= 0; at = rest.lastIndexOf('@', at - 1)) {
    if (/^[\w.\-:,[\]%]+(?:[/?]|$)/.test(rest.slice(at + 1))) return at;
  }
  return -1;
}

function decodeOrSelf(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
