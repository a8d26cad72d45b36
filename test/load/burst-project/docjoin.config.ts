import type { Db } from 'mongodb';

/**
 * The project test/load/heavy-burst.test.ts serves: 100 hosts with 100 log messages each, so that
 * `hosts(first: 100) { logs(first: 100) }` reads 10,100 documents, and nine aliases of it are the
 * heaviest operation the default limits admit (90,900 estimated documents of 100,000).
 */
export const HOSTS = 100;
export const MESSAGES_PER_HOST = 100;

async function seed(db: Db): Promise<void> {
  const hosts = Array.from({ length: HOSTS }, (_, h) => ({ _id: `host-${h}`, name: `host-${h}.example.com`, ipaddr: `10.0.${Math.floor(h / 250)}.${h % 250}` }));
  await db.collection<{ _id: string }>('hosts').insertMany(hosts);
  const messages = hosts.flatMap((host, h) =>
    Array.from({ length: MESSAGES_PER_HOST }, (_, m) => ({
      _id: `log-${h}-${m}`,
      time: new Date(Date.UTC(2026, 0, 1, 0, 0, m)).toISOString(),
      message: `request ${m} served by ${host.name} in ${(h * 7 + m * 13) % 500} ms`,
      host: { id: host._id, name: host.name, ipaddr: host.ipaddr },
    })),
  );
  await db.collection<{ _id: string }>('logMessages').insertMany(messages);
  await db.collection('logMessages').createIndex({ 'host.id': 1, time: -1, _id: 1 });
}

export default { schema: 'schema.graphql', mongodb: { db: 'burst' }, seed };
