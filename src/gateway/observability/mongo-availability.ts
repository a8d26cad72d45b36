import type { MongoClient } from 'mongodb';
import type { DocjoinLogger } from '../../observability/logger';
import type { GatewayMetrics } from './metrics';

/**
 * Logs MongoDB outages and recoveries once each, from the driver's heartbeats and from requests that
 * failed with DATABASE_UNAVAILABLE, and keeps `docjoin_mongo_up` current. `where` names the server for
 * the log (credentials hidden).
 */
export class MongoAvailability {
  #up = true;
  readonly #onFailed = (event: { failure: Error }) => this.unavailable(event.failure.message);
  readonly #onSucceeded = () => this.available();

  constructor(
    private readonly client: MongoClient,
    private readonly logger: DocjoinLogger,
    private readonly metrics: GatewayMetrics | undefined,
    private readonly where: string,
  ) {
    client.on('serverHeartbeatFailed', this.#onFailed);
    client.on('serverHeartbeatSucceeded', this.#onSucceeded);
  }

  unavailable(reason: string): void {
    if (!this.#up) return;
    this.#up = false;
    this.metrics?.mongoReachable(false);
    this.logger.error({ mongo: this.where, reason }, 'MongoDB is unreachable; requests fail with DATABASE_UNAVAILABLE until it is back');
  }

  available(): void {
    if (this.#up) return;
    this.#up = true;
    this.metrics?.mongoReachable(true);
    this.logger.info({ mongo: this.where }, 'MongoDB is reachable again');
  }

  close(): void {
    this.client.off('serverHeartbeatFailed', this.#onFailed);
    this.client.off('serverHeartbeatSucceeded', this.#onSucceeded);
  }
}
