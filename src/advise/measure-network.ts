import { readServerVersion, type Db } from '../gateway';
import { medianTimeMs } from './median-time';
import type { NetworkCosts } from './recommend/lookup-advice';

/** Pings sent to measure the round trip: their median is what one costs. */
const PINGS = 15;

/**
 * The round trip between this process and MongoDB (the median of a few pings, after one that opens
 * the connection), the server's version, and the latency the advice should price: `latencyMs` when
 * given (another deployment), else the measured one.
 */
export async function measureNetwork(db: Db, latencyMs: number | undefined): Promise<NetworkCosts> {
  const measuredMs = Math.round((await medianTimeMs(() => db.command({ ping: 1 }), PINGS)) * 100) / 100;
  return { latencyMs: latencyMs ?? measuredMs, measuredMs, assumed: latencyMs !== undefined, serverVersion: await readServerVersion(db) };
}

