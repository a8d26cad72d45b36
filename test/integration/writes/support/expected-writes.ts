import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { MongoClient } from 'mongodb';
import type { CostReport } from 'docjoin';

type WriteCost = NonNullable<CostReport['writes']>;

/**
 * Whether the test MongoDB runs transactions, asked the way the gateway asks (hello has setName, or a
 * mongos). The embedded server does; a standalone MONGODB_URI does not, and then every mutation runs
 * the ordered path: `atomic: false` and no commitTransaction / abortTransaction round trip.
 */
export async function serverSupportsTransactions(client: MongoClient): Promise<boolean> {
  const hello = await client.db('admin').command({ hello: 1 });
  return typeof hello.setName === 'string' || hello.msg === 'isdbgrid';
}

/**
 * `extensions.cost.writes` of a unit that ran once, as measured on a server with transactions
 * (`roundTrips` counting its commit or abort), adjusted for the server under test.
 */
export function expectedWrites(transactions: boolean, measured: { roundTrips: number; documentsModified: number; fanOut: Record<string, number> }): WriteCost {
  return transactions
    ? { ...measured, atomic: true, attempts: 1 }
    : { ...measured, roundTrips: measured.roundTrips - 1, atomic: false, attempts: 1 };
}

/**
 * The same question, answered while jest registers tests (synchronously, in a child process), so a
 * test that needs transactions can be registered as skipped, with the reason in its title. The
 * embedded server (no MONGODB_URI) always runs them.
 */
export function transactionsAtRegistration(): { readonly supported: boolean; readonly skipReason: string } {
  const uri = process.env.MONGODB_URI;
  if (!uri) return { supported: true, skipReason: '' };
  const script = `
    const { MongoClient } = require('mongodb');
    MongoClient.connect(process.env.MONGODB_URI, { serverSelectionTimeoutMS: 10000 })
      .then(async (client) => {
        const hello = await client.db('admin').command({ hello: 1 });
        process.stdout.write(String(typeof hello.setName === 'string' || hello.msg === 'isdbgrid'));
        await client.close();
      })
      .catch((error) => { process.stderr.write(String(error)); process.exit(1); });`;
  const supported = execFileSync(process.execPath, ['-e', script], { cwd: join(__dirname, '../../../..'), env: process.env, encoding: 'utf8' }).trim() === 'true';
  return { supported, skipReason: supported ? '' : ' (skipped: MONGODB_URI is a standalone server, which runs no transactions)' };
}
