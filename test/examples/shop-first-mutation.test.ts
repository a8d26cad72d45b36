import type { Viewer } from 'docjoin';
import { SHOP_IDS } from '../../examples/shop/seed/seed-shop';
import { startShopGateway, type ShopGateway } from './start-shop';
import { commandsSentDuring } from '../support/commands-sent';

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
  const query = `mutation { updateProduct(id: "${SHOP_IDS.matcha.toHexString()}", input: { name: "Ceremonial Matcha" }) { name } }`;
  const { sent, result } = await commandsSentDuring(shop.client, () => shop.gateway.execute({ query }, { viewer: ADMIN }));
  expect(result.errors).toBeUndefined();
  expect(sent).not.toContain('hello');
  expect(sent).not.toContain('create');
  expect(sent.length).toBe(result.cost!.roundTrips);
});
