import { defineConfig } from 'docjoin';
import { resolvers, writePlans } from './resolvers';
import { seedShop } from './seed/seed-shop';

/** The shop: `npx docjoin serve --config examples/shop/docjoin.config.ts` serves it on the embedded server. */
export default defineConfig({
  schema: 'schema',
  resolvers,
  writePlans,
  mongodb: { db: 'shop' },
  codegen: { publicSchema: 'schema.public.graphql', config: 'codegen.yml' },
  seed: (db, { onProgress }) => seedShop(db, { onProgress }),
});
