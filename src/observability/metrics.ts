import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CostReport } from '../gateway/cost/cost-ledger';

/**
 * docjoin's Prometheus metrics (prom-client), on a registry of the gateway's own, served at `/metrics`:
 * requests by operation and outcome, latency, MongoDB round trips, documents and bytes per request and
 * per field and strategy, snapshot hits and misses, the estimate next to the measure, write fan-out,
 * cost-limit rejections, MongoDB reachability, and the process's own metrics.
 */

/** One finished GraphQL request, as the request-log plugin saw it. */
export interface ObservedRequest {
  readonly operationName: string | undefined;
  readonly durationSeconds: number;
  /** The first error's extensions.code, or undefined when the request succeeded. */
  readonly errorCode: string | undefined;
  /** Undefined when the request never reached the gateway's accounting (e.g. a malformed body). */
  readonly cost: CostReport | undefined;
  /** The limit named by a COST_LIMIT_EXCEEDED rejection. */
  readonly rejectedLimit: string | undefined;
}

/** Distinct operation names kept as label values; later ones count as `other` (clients choose names). */
const MAX_OPERATION_NAMES = 200;
const COUNT_BUCKETS = [0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 100];

export class GatewayMetrics {
  readonly registry = new Registry();
  readonly #operations = new Set<string>();
  readonly #requests = new Counter({ name: 'docjoin_requests_total', help: 'GraphQL requests by operation name and outcome (ok, or the error code)', labelNames: ['operation', 'outcome'] as const, registers: [this.registry] });
  readonly #duration = new Histogram({ name: 'docjoin_request_duration_seconds', help: 'GraphQL request latency', labelNames: ['operation'] as const, buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [this.registry] });
  readonly #roundTrips = new Histogram({ name: 'docjoin_request_mongo_round_trips', help: 'MongoDB round trips per request', labelNames: ['operation'] as const, buckets: COUNT_BUCKETS, registers: [this.registry] });
  readonly #estimated = new Histogram({ name: 'docjoin_request_estimated_round_trips', help: 'Round trips the static estimate allowed per request (compare with docjoin_request_mongo_round_trips)', labelNames: ['operation'] as const, buckets: COUNT_BUCKETS, registers: [this.registry] });
  readonly #surplus = new Histogram({ name: 'docjoin_request_estimate_surplus_round_trips', help: 'Estimated minus measured round trips per request (negative would be an estimate below the measure)', buckets: [-1, 0, 1, 2, 3, 5, 8, 13, 21, 50], registers: [this.registry] });
  readonly #documents = new Histogram({ name: 'docjoin_request_mongo_documents', help: 'Documents MongoDB returned per request', buckets: [0, 1, 10, 50, 100, 500, 1000, 5000, 10000, 100000], registers: [this.registry] });
  readonly #bytes = new Histogram({ name: 'docjoin_request_mongo_bytes', help: 'Reply bytes from MongoDB per request', buckets: [0, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8], registers: [this.registry] });
  readonly #fieldRoundTrips = new Counter({ name: 'docjoin_field_round_trips_total', help: 'MongoDB commands each relation field took part in, by strategy', labelNames: ['field', 'strategy'] as const, registers: [this.registry] });
  readonly #fieldDocuments = new Counter({ name: 'docjoin_field_documents_total', help: 'Documents fetched for each relation field, by strategy', labelNames: ['field', 'strategy'] as const, registers: [this.registry] });
  readonly #snapshotHits = new Counter({ name: 'docjoin_snapshot_hits_total', help: 'Snapshot reads served from the copy', labelNames: ['field'] as const, registers: [this.registry] });
  readonly #snapshotMisses = new Counter({ name: 'docjoin_snapshot_misses_total', help: 'Snapshot reads that fell back to the join', labelNames: ['field'] as const, registers: [this.registry] });
  readonly #fanOut = new Counter({ name: 'docjoin_write_fan_out_documents_total', help: 'Documents modified by writes, per collection (a write and every copy it kept true)', labelNames: ['collection'] as const, registers: [this.registry] });
  readonly #rejections = new Counter({ name: 'docjoin_cost_limit_rejections_total', help: 'Operations rejected before execution by a cost limit (COST_LIMIT_EXCEEDED)', labelNames: ['limit'] as const, registers: [this.registry] });
  readonly #mongoUp = new Gauge({ name: 'docjoin_mongo_up', help: '1 while MongoDB answers its heartbeats, 0 during an outage', registers: [this.registry] });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    this.#mongoUp.set(1);
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The Prometheus text exposition of every metric. */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  observe(request: ObservedRequest): void {
    const operation = this.#operationLabel(request.operationName);
    this.#requests.inc({ operation, outcome: request.errorCode ?? 'ok' });
    this.#duration.observe({ operation }, request.durationSeconds);
    if (request.rejectedLimit !== undefined) this.#rejections.inc({ limit: request.rejectedLimit });
    const { cost } = request;
    if (!cost) return;
    this.#roundTrips.observe({ operation }, cost.roundTrips);
    this.#estimated.observe({ operation }, cost.estimatedRoundTrips);
    if (cost.estimatedRoundTrips > 0) this.#surplus.observe(cost.estimatedRoundTrips - cost.roundTrips);
    this.#documents.observe(cost.documents);
    this.#bytes.observe(cost.bytes);
    for (const [field, fieldCost] of Object.entries(cost.fields)) {
      const labels = { field, strategy: fieldCost.strategy };
      this.#fieldRoundTrips.inc(labels, fieldCost.roundTrips);
      this.#fieldDocuments.inc(labels, fieldCost.documents);
      if (fieldCost.snapshotHits) this.#snapshotHits.inc({ field }, fieldCost.snapshotHits);
      if (fieldCost.snapshotMisses) this.#snapshotMisses.inc({ field }, fieldCost.snapshotMisses);
    }
    for (const [collection, modified] of Object.entries(cost.writes?.fanOut ?? {})) this.#fanOut.inc({ collection }, modified);
  }

  mongoReachable(up: boolean): void {
    this.#mongoUp.set(up ? 1 : 0);
  }

  #operationLabel(name: string | undefined): string {
    const label = name ?? 'anonymous';
    if (this.#operations.has(label)) return label;
    if (this.#operations.size >= MAX_OPERATION_NAMES) return 'other';
    this.#operations.add(label);
    return label;
  }
}
