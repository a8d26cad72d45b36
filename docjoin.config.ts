import { defineConfig } from 'docjoin';
import { rootResolvers, rootWritePlans } from './resolvers';
import { seedDemoData } from './seed/seed-database';

/** The demo project: `npm start` serves it on the embedded server, filled by its seed. */
export default defineConfig({
  schema: 'schema',
  resolvers: rootResolvers,
  writePlans: rootWritePlans,
  mongodb: { db: 'docjoin' },
  codegen: { publicSchema: 'schema.public.graphql', config: 'codegen.yml' },
  seed: (db, { scale, onProgress }) => seedDemoData(db, { scale, onProgress }),
});
