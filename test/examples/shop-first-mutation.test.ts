import type { CommandStartedEvent } from 'mongodb';
import type { Viewer } from 'docjoin';
import { SHOP_IDS } from '../../examples/shop/seed/seed-shop';
import { startShopGateway, type ShopGateway } from './start-shop';

/**
 * What the first mutation of a process would ask the server (whether it runs transactions; the lock
 * collection, where a mutation bumps reference locks) is asked at startup: the first mutation sends only
 * the commands its extensions.cost counts.
 */
const ADMIN: Viewer = { role: 'admin', roles: ['admin'], anonymous: false, subject: undefined, claims: { role: 'admin' } };
let shop: ShopGateway;
beforeAll(async () => {
  shop = await startShopGateway('shop_first_mutation');
}, 60_000);
afterAll(() => shop?.stop());

it('sends only the commands its cost report counts, the first mutation of the process included', async () => {
  const sent: string[] = [];
  const onStarted = (event: CommandStartedEvent) => void sent.push(event.commandName);
  shop.client.on('commandStarted', onStarted);
  try {
    const query = `mutation { updateProduct(id: "${SHOP_IDS.matcha.toHexString()}", input: { name: "Ceremonial Matcha" }) { name } }`;
    const result = await shop.gateway.execute({ query }, { viewer: ADMIN });
    expect(result.errors).toBeUndefined();
    expect(sent).not.toContain('hello');
    expect(sent).not.toContain('create');
    expect(sent.length).toBe(result.cost!.roundTrips);
  } finally {
    shop.client.off('commandStarted', onStarted);
  }
});
