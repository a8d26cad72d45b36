import { createPublicKey, KeyObject } from 'node:crypto';
import { GraphQLError } from 'graphql';
import { PublicErrorCode } from '../../errors/public-error-code';
import { GatewayOptionError } from '../../errors/internal-errors';

/** Who sends a request: the role its `@access` rules are read for, and the claims they compare. */
export interface Viewer {
  /** The role whose rules apply: the token's only role, or the one `x-docjoin-role` picked among them. */
  readonly role: string;
  /** Every role the token gives (the anonymous viewer: its one role). */
  readonly roles: readonly string[];
  /** No credentials were sent: the anonymous role. */
  readonly anonymous: boolean;
  /** The token's subject (`sub`), when it has one. */
  readonly subject: string | undefined;
  /** The verified claims (none for the anonymous viewer). */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** JWT verification (with jose). Give exactly one of `secret`, `publicKey` and `jwksUrl`. */
export interface JwtOptions {
  /** HS256 (HS384, HS512 with `algorithms`): the shared secret, at least 32 characters. */
  readonly secret?: string;
  /** The issuer's public key, PEM (SPKI): RSA (RS256 by default; RS384… PS512 with `algorithms`), EC on P-256, P-384 or P-521 (ES256, ES384, ES512), or Ed25519 (EdDSA). */
  readonly publicKey?: string;
  /** RS256 / ES256 keys from the issuer's JWKS, fetched on first use, cached 10 minutes, fetched again for an unknown `kid` (key rotation). */
  readonly jwksUrl?: string;
  /** The algorithms accepted (default: HS256 for a secret; the key's own for a public key, refused at startup if it cannot verify one listed; RS256 and ES256 for a JWKS). `none` never is. */
  readonly algorithms?: readonly string[];
  /** The `iss` a token must carry. */
  readonly issuer?: string | readonly string[];
  /** The `aud` a token must carry (one of them). */
  readonly audience?: string | readonly string[];
  /** Leeway for `exp` and `nbf`, in seconds (default 5). */
  readonly clockToleranceSeconds?: number;
}

/** The request as authentication sees it. */
export interface AuthenticationRequest {
  /** A header's value by its lower-case name. */
  header(name: string): string | undefined;
}

/** How requests are authenticated (the `auth` option). */
export interface AuthOptions {
  /** Verify `Authorization: Bearer <JWT>`. */
  readonly jwt?: JwtOptions;
  /**
   * Your own authentication instead of `jwt` (a mounted gateway's session, an API key): the request's
   * viewer, or undefined for the anonymous one. Throw `unauthenticated(message)` to refuse it with 401.
   */
  readonly authenticate?: (request: AuthenticationRequest) => Viewer | undefined | Promise<Viewer | undefined>;
  /** The claim naming the viewer's role (default "role"): a string, or a list from which `x-docjoin-role` picks one. */
  readonly roleClaim?: string;
  /** The role of a request without credentials (default "anonymous"). */
  readonly anonymousRole?: string;
}

export const ROLE_HEADER = 'x-docjoin-role';

/** A request's credentials were refused: HTTP 401 with `WWW-Authenticate`, the reason in the message (never the token). */
export function unauthenticated(reason: string): GraphQLError {
  return new GraphQLError(`Unauthenticated: ${reason}`, {
    extensions: {
      code: PublicErrorCode.UNAUTHENTICATED,
      reason,
      http: { status: 401, headers: new Map([['www-authenticate', `Bearer error="invalid_token", error_description="${headerDescription(reason)}"`]]) },
    },
  });
}

/** RFC 6750's error_description allows printable ASCII but `"` and `\`: line breaks become spaces, the rest is dropped. */
function headerDescription(reason: string): string {
  return reason.replace(/[\r\n\t]/g, ' ').replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '');
}

/** The token could not be checked (the issuer's JWKS is unreachable): HTTP 503, the request may be sent again. */
function cannotAuthenticate(reason: string, cause?: unknown): GraphQLError {
  return new GraphQLError(`Authentication is unavailable: ${reason}`, {
    ...(cause instanceof Error && { originalError: cause }),
    extensions: { code: PublicErrorCode.AUTHENTICATION_UNAVAILABLE, reason, http: { status: 503, headers: new Map([['retry-after', '5']]) } },
  });
}

/**
 * What your `auth.authenticate` gave: its refusal (a GraphQLError with a code, such as `unauthenticated`) as it is;
 * any other error is an outage of what it relies on (a session store), answered 503 like an unreachable
 * JWKS, the error kept as the cause for the log and never shown to the client.
 */
async function ownAuthentication(own: NonNullable<AuthOptions['authenticate']>, request: AuthenticationRequest): Promise<unknown> {
  try {
    return await own(request);
  } catch (error) {
    if (error instanceof GraphQLError && typeof error.extensions.code === 'string') throw error;
    throw cannotAuthenticate('auth.authenticate failed (the server log has its error)', error);
  }
}

/** The viewer your `auth.authenticate` returned, checked: a malformed one would decide access by accident. */
function ownViewer(viewer: unknown): Viewer | undefined {
  if (viewer === undefined || viewer === null) return undefined;
  const missing = missingFromViewer(viewer as Partial<Record<keyof Viewer, unknown>>);
  if (missing === undefined) return viewer as Viewer;
  throw cannotAuthenticate(`auth.authenticate returned a viewer without ${missing}`, new TypeError(`auth.authenticate returned a viewer without ${missing}; return { role, roles, anonymous, subject, claims }, or undefined for the anonymous one`));
}

/** What `viewer` lacks of a Viewer's shape, or undefined. */
function missingFromViewer({ role, roles, anonymous, subject, claims }: Partial<Record<keyof Viewer, unknown>>): string | undefined {
  if (typeof role !== 'string' || role === '') return 'a role (a non-empty string)';
  if (!Array.isArray(roles) || !roles.every((each) => typeof each === 'string') || !roles.includes(role)) return 'roles (strings, its role among them)';
  if (typeof anonymous !== 'boolean') return 'anonymous (a boolean)';
  if (subject !== undefined && typeof subject !== 'string') return 'a subject that is a string or undefined';
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) return 'claims (an object)';
  return undefined;
}

/** An `auth` option with a wrong value, named with the value (never a secret's). */
export class AuthOptionError extends GatewayOptionError {
  override readonly name = 'AuthOptionError';
}

export interface Authenticator {
  /** The request's viewer, or a refusal (unauthenticated, 401). */
  authenticate(request: AuthenticationRequest): Promise<Viewer>;
  /** The viewer of a request without credentials. */
  readonly anonymous: Viewer;
}

const MIN_SECRET_LENGTH = 32;
const JWKS_CACHE_MS = 10 * 60_000;
const DEFAULT_CLOCK_TOLERANCE_S = 5;
const BEARER = /^Bearer\s+([A-Za-z0-9_\-.~+/=]+)\s*$/i;

/**
 * The authenticator the `auth` option describes, checked once (jose is loaded here, keys imported, the
 * JWKS set up). Without `jwt` or `authenticate`, every request is anonymous and a token is ignored.
 */
export async function createAuthenticator(options: AuthOptions | undefined): Promise<Authenticator> {
  // A value that is no options object would leave every request anonymous, unnoticed.
  if (options !== undefined && options !== null && (typeof options !== 'object' || Array.isArray(options))) throw new AuthOptionError(`option auth must be { jwt } or { authenticate }, got ${Array.isArray(options) ? 'an array' : typeof options === 'function' ? 'a function (give it as auth.authenticate)' : JSON.stringify(options)}`);
  if (options?.authenticate != null && typeof options.authenticate !== 'function') throw new AuthOptionError(`option auth.authenticate must be a function (request) => viewer, got ${typeof options.authenticate}`);
  const anonymousRole = anonymousRoleOf(options);
  const roleClaim = nonEmpty(options?.roleClaim, 'auth.roleClaim') ?? 'role';
  const anonymous: Viewer = Object.freeze({ role: anonymousRole, roles: Object.freeze([anonymousRole]), anonymous: true, subject: undefined, claims: Object.freeze({}) });
  if (options?.jwt && options.authenticate) throw new AuthOptionError('option auth: give jwt or authenticate, not both');
  if (options?.authenticate) {
    const own = options.authenticate;
    return { anonymous, authenticate: async (request) => ownViewer(await ownAuthentication(own, request)) ?? anonymous };
  }
  if (!options?.jwt) return { anonymous, authenticate: async () => anonymous };
  const verify = await createJwtVerifier(options.jwt);
  return {
    anonymous,
    async authenticate(request) {
      const header = request.header('authorization');
      if (header === undefined || header === '') return anonymous;
      const token = BEARER.exec(header)?.[1];
      if (!token) throw unauthenticated('the Authorization header must be "Bearer <token>"');
      const claims = await verify(token);
      return viewerOf(claims, roleClaim, request.header(ROLE_HEADER));
    },
  };
}

/** Throws the AuthOptionError a wrong `auth` option gets: for a start to check before anything slow (a seed). */
export async function checkAuthOptions(options: AuthOptions | undefined): Promise<void> {
  await createAuthenticator(options);
}

function viewerOf(claims: Readonly<Record<string, unknown>>, roleClaim: string, chosenRole: string | undefined): Viewer {
  const value = claims[roleClaim];
  const roles = typeof value === 'string' ? [value] : Array.isArray(value) ? value.filter((role): role is string => typeof role === 'string') : [];
  if (roles.length === 0) throw unauthenticated(`the token names no role (claim "${roleClaim}")`);
  let role: string;
  if (chosenRole !== undefined) {
    if (!roles.includes(chosenRole)) throw unauthenticated(`the token does not give the role "${chosenRole}" that ${ROLE_HEADER} asks for`);
    role = chosenRole;
  } else if (roles.length === 1) role = roles[0]!;
  else throw unauthenticated(`the token gives several roles; pick one with the ${ROLE_HEADER} header`);
  const subject = typeof claims.sub === 'string' ? claims.sub : undefined;
  return Object.freeze({ role, roles: Object.freeze([...roles]), anonymous: false, subject, claims: Object.freeze({ ...claims }) });
}

type JoseErrors = typeof import('jose', { with: { 'resolution-mode': 'import' } }).errors;

type Verify = (token: string) => Promise<Readonly<Record<string, unknown>>>;

async function createJwtVerifier(options: JwtOptions): Promise<Verify> {
  const jose = await import('jose');
  const given = (['secret', 'publicKey', 'jwksUrl'] as const).filter((name) => options[name] !== undefined);
  if (given.length !== 1) {
    // `secret: process.env.JWT_SECRET` with the variable unset is the usual way to give none.
    const unset = given.length === 0 ? (['secret', 'publicKey', 'jwksUrl'] as const).filter((name) => Object.hasOwn(options, name)) : [];
    const got = given.length > 0 ? given.join(' and ') : unset.length > 0 ? `${unset.join(' and ')} given as undefined (an environment variable that is not set?)` : 'none';
    throw new AuthOptionError(`option auth.jwt needs exactly one of secret, publicKey and jwksUrl, got ${got}`);
  }
  let key: Uint8Array | KeyObject | ReturnType<typeof jose.createRemoteJWKSet>;
  let algorithms: readonly string[];
  if (options.secret !== undefined) {
    if (typeof options.secret !== 'string' || options.secret.length < MIN_SECRET_LENGTH) {
      throw new AuthOptionError(`option auth.jwt.secret must be a string of at least ${MIN_SECRET_LENGTH} characters (HS256 needs as many bytes of key), got ${typeof options.secret === 'string' ? `${options.secret.length} characters` : typeof options.secret}`);
    }
    key = new TextEncoder().encode(options.secret);
    algorithms = options.algorithms ?? ['HS256'];
  } else if (options.publicKey !== undefined) {
    let publicKey: KeyObject;
    try {
      publicKey = createPublicKey(options.publicKey);
    } catch (error) {
      throw new AuthOptionError(`option auth.jwt.publicKey must be a PEM public key ("-----BEGIN PUBLIC KEY-----…"): ${(error as Error).message}`);
    }
    key = publicKey;
    algorithms = options.algorithms ?? [usualAlgorithmOf(publicKey)];
  } else {
    let url: URL;
    try {
      url = new URL(String(options.jwksUrl));
    } catch {
      throw new AuthOptionError(`option auth.jwt.jwksUrl must be a URL, got ${JSON.stringify(options.jwksUrl)}`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new AuthOptionError(`option auth.jwt.jwksUrl must be an http(s) URL, got ${JSON.stringify(options.jwksUrl)}`);
    key = jose.createRemoteJWKSet(url, { cacheMaxAge: JWKS_CACHE_MS });
    algorithms = options.algorithms ?? ['RS256', 'ES256'];
  }
  if (!Array.isArray(algorithms) || algorithms.length === 0 || algorithms.some((algorithm) => typeof algorithm !== 'string' || algorithm.toLowerCase() === 'none')) {
    throw new AuthOptionError(`option auth.jwt.algorithms must list signing algorithms such as ["RS256"] ("none" is never accepted), got ${JSON.stringify(algorithms)}`);
  }
  if (key instanceof KeyObject) refuseAlgorithmsTheKeyCannotVerify(key, algorithms);
  const tolerance = options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_S;
  if (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0) throw new AuthOptionError(`option auth.jwt.clockToleranceSeconds must be a number of seconds from 0, got ${JSON.stringify(tolerance)}`);
  const verifyOptions = {
    algorithms: [...algorithms],
    clockTolerance: tolerance,
    // A token that never expires cannot be taken back: refused.
    requiredClaims: ['exp'],
    ...(options.issuer !== undefined && { issuer: typeof options.issuer === 'string' ? options.issuer : [...options.issuer] }),
    ...(options.audience !== undefined && { audience: typeof options.audience === 'string' ? options.audience : [...options.audience] }),
  };
  // One form for jose: a JWKS is already a function of the token's header, a fixed key becomes one.
  const remote = typeof key === 'function';
  const getKey = typeof key === 'function' ? key : async () => key;
  return async (token) => {
    try {
      const { payload } = await jose.jwtVerify(token, getKey, verifyOptions);
      return payload as Record<string, unknown>;
    } catch (error) {
      throw refusal(error, jose.errors, remote);
    }
  };
}

/** The signing algorithms of an EC key's curve (Node's name for it), one each. */
const EC_ALGORITHMS: Readonly<Record<string, string>> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };

/** jose verifies with no RSA key shorter than this. */
const MIN_RSA_BITS = 2048;

/** The JWS algorithms jose verifies tokens with `publicKey` by, the usual one first: by its type, and an EC key's curve. */
function verifiableAlgorithms(publicKey: KeyObject): readonly string[] {
  switch (publicKey.asymmetricKeyType) {
    case 'rsa':
      return (publicKey.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_RSA_BITS ? [] : ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];
    case 'ec': {
      const algorithm = EC_ALGORITHMS[publicKey.asymmetricKeyDetails?.namedCurve ?? ''];
      return algorithm === undefined ? [] : [algorithm];
    }
    case 'ed25519':
      return ['EdDSA', 'Ed25519'];
    default:
      return [];
  }
}

/** How a refusal names a public key: its type, and an EC key's curve. */
function keyKind(publicKey: KeyObject): string {
  const { namedCurve, modulusLength } = publicKey.asymmetricKeyDetails ?? {};
  const detail = namedCurve ?? (modulusLength === undefined ? undefined : `${modulusLength} bits`);
  return `${publicKey.asymmetricKeyType ?? 'unknown'}${detail === undefined ? '' : ` (${detail})`}`;
}

/** The algorithm tokens signed by `publicKey`'s pair usually use; refused at startup for a key jose verifies no token with (Ed448, an EC key on secp256k1). */
function usualAlgorithmOf(publicKey: KeyObject): string {
  const [usual] = verifiableAlgorithms(publicKey);
  if (usual === undefined) throw new AuthOptionError(`option auth.jwt.publicKey is an ${keyKind(publicKey)} key, which docjoin verifies no token with; use an RSA key of at least ${MIN_RSA_BITS} bits, an EC key (P-256, P-384 or P-521) or an Ed25519 key`);
  return usual;
}

/** Algorithms jose cannot verify by `publicKey` (ES256 with a P-384 key), which would fail inside jose at each request: refused at startup. */
function refuseAlgorithmsTheKeyCannotVerify(publicKey: KeyObject, algorithms: readonly string[]): void {
  const verifiable = verifiableAlgorithms(publicKey);
  const unverifiable = algorithms.filter((algorithm) => !verifiable.includes(algorithm));
  if (unverifiable.length === 0) return;
  // A key that verifies nothing is refused as such, whatever was listed.
  usualAlgorithmOf(publicKey);
  throw new AuthOptionError(`option auth.jwt.algorithms lists ${unverifiable.join(', ')}, which the ${keyKind(publicKey)} public key cannot verify; it verifies ${verifiable.join(', ')}: list only those, or leave algorithms out for ${verifiable[0]}`);
}

/**
 * jose's error as the client's 401, or a 503 when the JWKS could not be fetched (`remote`: any error
 * that is not about the token is the fetch's); anything else is a bug and stays one.
 */
function refusal(error: unknown, errors: JoseErrors, remote: boolean): GraphQLError {
  if (error instanceof errors.JWTExpired) return unauthenticated('the token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf') return unauthenticated('the token is not valid yet');
    if (error.claim === 'aud') return unauthenticated('the token is for another audience');
    if (error.claim === 'iss') return unauthenticated('the token is from another issuer');
    return unauthenticated(`the token's "${error.claim}" claim is ${error.reason === 'missing' ? 'missing' : 'invalid'}`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) return unauthenticated('the token is signed with an algorithm this server does not accept');
  if (error instanceof errors.JWSSignatureVerificationFailed) return unauthenticated('the token\'s signature does not verify');
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) return unauthenticated('the token is signed with a key the issuer does not list');
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) return cannotAuthenticate('the issuer\'s keys could not be fetched');
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return unauthenticated('the token is malformed');
  if (remote) return cannotAuthenticate('the issuer\'s keys could not be fetched');
  if (error instanceof errors.JOSEError) return unauthenticated('the token is malformed');
  throw error;
}

/** The role of a request without credentials: `auth.anonymousRole`, default "anonymous" (AuthOptionError when blank). */
export function anonymousRoleOf(options: AuthOptions | undefined): string {
  return nonEmpty(options?.anonymousRole, 'auth.anonymousRole') ?? 'anonymous';
}

function nonEmpty(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw new AuthOptionError(`option ${name} must be a non-empty string, got ${JSON.stringify(value)}`);
  return value;
}
