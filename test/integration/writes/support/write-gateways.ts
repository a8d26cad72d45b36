import { demoProjectOptions } from '../../../support/demo-project';
import { gatewaySettingsOf, loadConfig } from '../../../../src/config/config';
import { type Gateway } from 'docjoin';
import { declaredStrategies } from '../../../../src/gateway/startup/storage-map/storage-map-types';
import type { WriteOptions } from '../../../../src/gateway/writes/request-writes';
import type { DemoGateway } from '../../gateway/support/demo-gateway';
import { createCheckedGateway } from '../../../support/checked-gateway';

/** Another gateway over the demo gateway's database and client, with other write options (no reseed). */
export async function gatewayWith(demo: DemoGateway, writes: WriteOptions): Promise<Gateway> {
  return createCheckedGateway({
    db: demo.client.db(demo.dbName),
    mongoClient: demo.client,
    mongoKind: demo.mongo.isEmbedded ? 'embedded' : 'external',
    ...demoProjectOptions(), ...gatewaySettingsOf(loadConfig({ PORT: '0' })),
    listen: false,
    writes,
  });
}

/** Every `x-docjoin-strategy` header combining the declared strategies of `coordinates`. */
export function everyStrategy(gateway: Gateway, coordinates: readonly string[]): string[] {
  let headers = [''];
  for (const coordinate of coordinates) {
    const field = gateway.storageMap.relations.get(coordinate);
    if (!field) throw new Error(`unknown relation ${coordinate}`);
    headers = headers.flatMap((header) => declaredStrategies(field).map((strategy) => [header, `${coordinate}=${strategy}`].filter(Boolean).join(',')));
  }
  return headers;
}

/** Runs `query` under every strategy combination of `coordinates`; all must answer the same data, which is returned. */
export async function readUnderEveryStrategy(gateway: Gateway, query: string, coordinates: readonly string[]): Promise<{ data: Record<string, unknown>; headers: string[] }> {
  const headers = everyStrategy(gateway, coordinates);
  const results = await Promise.all(headers.map((strategyHeader) => gateway.execute({ query }, { strategyHeader })));
  for (const result of results) expect(result.errors).toBeUndefined();
  for (const result of results.slice(1)) expect(result.data).toEqual(results[0]!.data);
  return { data: results[0]!.data as Record<string, unknown>, headers };
}
