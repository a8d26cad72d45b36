import { shopJwtSecret } from './shop-jwt-secret';

/**
 * Prints a token for the shop: `npx tsx examples/shop/auth/make-token.ts customer 67c000000000000000000001`
 * or `… admin`. Valid for an hour, signed with DOCJOIN_JWT_SECRET (or the development secret).
 */
async function main(): Promise<void> {
  const [role, subject] = process.argv.slice(2);
  if (role !== 'customer' && role !== 'admin') throw new Error('usage: make-token.ts customer <customer id> | admin');
  if (role === 'customer' && !/^[0-9a-f]{24}$/i.test(subject ?? '')) throw new Error('a customer token needs the customer\'s id (24 hex digits)');
  const { SignJWT } = await import('jose');
  const token = new SignJWT({ role, ...(subject && { sub: subject }) }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt().setExpirationTime('1h');
  process.stdout.write(`${await token.sign(new TextEncoder().encode(shopJwtSecret()))}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exitCode = 1;
});
