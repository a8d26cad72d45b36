import { join } from 'node:path';
import { defineConfig } from 'docjoin';
import { resolvers, writePlans } from './resolvers';
import { seedShop } from './seed/seed-shop';
import { shopJwtSecret } from './auth/shop-jwt-secret';

/**
 * The shop: `npx docjoin serve --config examples/shop/docjoin.config.ts` serves it on the embedded server.
 * Tokens are HS256, signed with DOCJOIN_JWT_SECRET, with claims `sub` (a customer's id) and `role`
 * (`customer` or `admin`); `npx tsx examples/shop/auth/make-token.ts customer <id>` makes one. In
 * production (NODE_ENV=production) it runs only the storefront's operations, by hash or text.
 */
export default defineConfig({
  schema: 'schema',
  resolvers,
  writePlans,
  mongodb: { db: 'shop' },
  auth: { jwt: { secret: shopJwtSecret() } },
  server: {
    // Each customer (or anonymous address) may spend 2,000 points, 100 more each second.
    budget: { capacity: 2000, restoreRate: 100 },
    // In production only the storefront's operations (operations/*.graphql) run.
    trustedDocuments: { manifest: join(__dirname, 'generated/client/persisted-documents.json') },
  },
  codegen: { publicSchema: 'schema.public.graphql', config: 'codegen.yml' },
  seed: (db, { onProgress }) => seedShop(db, { onProgress }),
});
