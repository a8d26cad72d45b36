/**
 * The secret the shop's tokens are signed with: DOCJOIN_JWT_SECRET. Outside production a fixed
 * development secret stands in when it is unset, so the example runs as it is; in production it must be set.
 */
export function shopJwtSecret(environment: NodeJS.ProcessEnv = process.env): string {
  const secret = environment.DOCJOIN_JWT_SECRET;
  if (secret !== undefined && secret !== '') return secret;
  if (environment.NODE_ENV === 'production') throw new Error('DOCJOIN_JWT_SECRET is not set: the shop signs and checks its tokens with it (32 characters or more)');
  return DEVELOPMENT_SECRET;
}

/** Known to everyone who reads this file: for trying the example, never for data that matters. */
export const DEVELOPMENT_SECRET = 'docjoin-shop-development-secret-change-me';
