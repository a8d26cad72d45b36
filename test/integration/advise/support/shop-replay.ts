import { resolve } from 'node:path';
import type { Db } from 'mongodb';
import { loadProject, type Viewer } from 'docjoin';
import type { TestMongo } from '../../../support/test-mongo';
import { adviseAndReplay, type AdviceReplay, type ReplayedOperation } from './advise-replay';

export const SHOP_DIR = resolve(__dirname, '../../../../examples/shop');
export const SHOP_CONFIG = resolve(SHOP_DIR, 'docjoin.config.ts');
/** The shop's access rules let its admin do everything: the workload is about storage, not rules. */
const ADMIN: Viewer = { role: 'admin', roles: ['admin'], anonymous: false, subject: undefined, claims: { role: 'admin' } };

/**
 * adviseAndReplay on the shop example, loaded through its docjoin.config.ts, the workload (made from the
 * seeded data) sent as its admin. `schema`: another copy of its schema files, with the config advise
 * reads them through (the shop's code and seed serve it).
 */
export async function adviseAndReplayShop(
  mongo: TestMongo,
  operations: (db: Db) => readonly ReplayedOperation[] | Promise<readonly ReplayedOperation[]>,
  schema: { readonly dir: string; readonly config: string } = { dir: resolve(SHOP_DIR, 'schema'), config: SHOP_CONFIG },
): Promise<AdviceReplay> {
  const project = await loadProject({ cwd: process.cwd(), configPath: SHOP_CONFIG });
  return adviseAndReplay(mongo, {
    schemaDir: schema.dir,
    config: schema.config,
    resolvers: project.resolvers,
    writePlans: project.writePlans,
    auth: project.config.auth!,
    viewer: ADMIN,
    seed: async (db) => void (await project.config.seed!(db, { scale: 1, onProgress: () => undefined })),
    operations: async (db) => operations(db),
  });
}
