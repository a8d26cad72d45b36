import { resolve } from 'node:path';
import { loadProject, type Viewer } from 'docjoin';
import type { TestMongo } from '../../../support/test-mongo';
import { adviseAndReplay, type AdviceReplay, type ReplayedOperation } from './advise-replay';

const SHOP_DIR = resolve(__dirname, '../../../../examples/shop');
/** The shop's access rules let its admin do everything: the workload is about storage, not rules. */
const ADMIN: Viewer = { role: 'admin', roles: ['admin'], anonymous: false, subject: undefined, claims: { role: 'admin' } };

/** adviseAndReplay on the shop example, loaded through its docjoin.config.ts, the workload sent as its admin. */
export async function adviseAndReplayShop(mongo: TestMongo, operations: () => readonly ReplayedOperation[]): Promise<AdviceReplay> {
  const config = resolve(SHOP_DIR, 'docjoin.config.ts');
  const project = await loadProject({ cwd: process.cwd(), configPath: config });
  return adviseAndReplay(mongo, {
    schemaDir: resolve(SHOP_DIR, 'schema'),
    config,
    resolvers: project.resolvers,
    writePlans: project.writePlans,
    auth: project.config.auth!,
    viewer: ADMIN,
    seed: async (db) => void (await project.config.seed!(db, { scale: 1, onProgress: () => undefined })),
    operations: async () => operations(),
  });
}
