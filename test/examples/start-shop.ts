import { resolve } from 'node:path';
import { loadProject } from 'docjoin';
import { startSdlGateway, type SdlGateway } from '../support/sdl-gateway';

export const SHOP_CONFIG = resolve(__dirname, '../../examples/shop/docjoin.config.ts');

export type ShopGateway = SdlGateway;

/** The shop example's gateway over a fresh database its seed filled at scale 1; a startup warning fails the test. */
export async function startShopGateway(dbPrefix: string): Promise<ShopGateway> {
  const project = await loadProject({ cwd: process.cwd(), configPath: SHOP_CONFIG });
  return startSdlGateway({
    typeDefs: project.typeDefs,
    dbPrefix,
    prepare: async (db) => void (await project.config.seed!(db, { scale: 1, onProgress: () => undefined })),
    gateway: {
      resolvers: project.resolvers,
      writePlans: project.writePlans,
      auth: project.config.auth!,
      onWarning: (message) => {
        throw new Error(message);
      },
    },
  });
}
