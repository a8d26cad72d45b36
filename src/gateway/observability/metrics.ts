import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import type { CostReport } from '../request/cost/cost-ledger';
import { BatchedCounter, BatchedHistogram, type CounterSeries, type HistogramSeries } from '../../observability/batched-metrics';

/**
 * docjoin's Prometheus metrics (prom-client), on a registry of the gateway's own, served at `/metrics`:
 * requests by operation and outcome, latency, MongoDB round trips, documents and bytes per request and
 * per field and strategy, snapshot hits and misses, the estimate next to the measure, write fan-out,
 * cost-limit rejections, MongoDB reachability, and the process's own metrics. What every request
 * records goes through batched-metrics.ts, into series kept per operation and per field.
 */

/** One finished GraphQL request, as the request-log plugin saw it. */
export interface ObservedRequest {
  readonly operationName: string | undefined;
  /** The operation ran (its response has data): only such a request's name takes one of the label values. */
  readonly executed: boolean;
  /** Undefined for a request refused before it started (nothing to time). */
  readonly durationSeconds: number | undefined;
  /** The first error's extensions.code, or undefined when the request succeeded. */
  readonly errorCode: string | undefined;
  /** Undefined when the request never reached the gateway's accounting (e.g. a malformed body). */
  readonly cost: CostReport | undefined;
  /** The limit named by a COST_LIMIT_EXCEEDED rejection. */
  readonly rejectedLimit: string | undefined;
}

/**
 * Distinct operation names kept as label values; later ones count as `other` (clients choose names).
 * A name takes one only once an operation of that name has run, so refused documents (invalid, over
 * the limits, untrusted) cannot use them up, and only if it is at most MAX_OPERATION_NAME_LENGTH long.
 */
const MAX_OPERATION_NAMES = 200;
export const MAX_OPERATION_NAME_LENGTH = 100;
const COUNT_BUCKETS = [0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 100];

/** The series a request with a given operation label records into. */
interface OperationSeries {
  readonly label: string;
  readonly outcomes: Map<string, CounterSeries>;
  readonly duration: HistogramSeries;
  readonly roundTrips: HistogramSeries;
  readonly estimated: HistogramSeries;
}

/** The series of one relation field and strategy; a snapshot's, once it has counted one. */
interface FieldSeries {
  readonly roundTrips: CounterSeries;
  readonly documents: CounterSeries;
  snapshotHits?: CounterSeries;
  snapshotMisses?: CounterSeries;
}

/** Requests running (holding a slot), queued for one, and waiting for the document budget with their slot lent. */
export interface AdmissionFigures {
  readonly running: number;
  readonly queued: number;
  readonly lent: number;
}

export class GatewayMetrics {
  readonly registry = new Registry();
  readonly #requests: BatchedCounter<'operation' | 'outcome'>;
  readonly #duration: BatchedHistogram<'operation'>;
  readonly #roundTrips: BatchedHistogram<'operation'>;
  readonly #estimated: BatchedHistogram<'operation'>;
  readonly #surplus: HistogramSeries;
  readonly #documents: HistogramSeries;
  readonly #bytes: HistogramSeries;
  readonly #fieldRoundTrips: BatchedCounter<'field' | 'strategy'>;
  readonly #fieldDocuments: BatchedCounter<'field' | 'strategy'>;
  readonly #snapshotHits: BatchedCounter<'field'>;
  readonly #snapshotMisses: BatchedCounter<'field'>;
  readonly #fanOut: BatchedCounter<'collection'>;
  readonly #rejections: BatchedCounter<'limit'>;
  readonly #estimateExceeded: BatchedCounter<'measure'>;
  readonly #mongoUp: Gauge;
  readonly #droppedFieldErrors: Counter;
  readonly #planLookups: BatchedCounter<'outcome'>;
  readonly #planHits: CounterSeries;
  readonly #planMisses: CounterSeries;
  #cachedPlans: () => number = () => 0;
  #admission: () => AdmissionFigures = () => ({ running: 0, queued: 0, lent: 0 });
  #documentsInFlight: () => number = () => 0;
  // The series a request records into, found by plain label values: a request builds no series key.
  readonly #operations = new Map<string, OperationSeries>();
  /** Operation names past the first MAX_OPERATION_NAMES, all labelled `other`. */
  #otherOperations: OperationSeries | undefined;
  readonly #fields = new Map<string, Map<string, FieldSeries>>();
  readonly #fanOutSeries = new Map<string, CounterSeries>();

  constructor() {
    const registry = this.registry;
    this.#requests = new BatchedCounter({ name: 'docjoin_requests_total', help: 'GraphQL requests by operation name and outcome (ok, or the error code)', labelNames: ['operation', 'outcome'], registry });
    this.#duration = new BatchedHistogram({ name: 'docjoin_request_duration_seconds', help: 'GraphQL request latency', labelNames: ['operation'], buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registry });
    this.#roundTrips = new BatchedHistogram({ name: 'docjoin_request_mongo_round_trips', help: 'MongoDB round trips per request', labelNames: ['operation'], buckets: COUNT_BUCKETS, registry });
    this.#estimated = new BatchedHistogram({ name: 'docjoin_request_estimated_round_trips', help: 'Round trips the static estimate allowed per request (compare with docjoin_request_mongo_round_trips)', labelNames: ['operation'], buckets: COUNT_BUCKETS, registry });
    this.#surplus = new BatchedHistogram({ name: 'docjoin_request_estimate_surplus_round_trips', help: 'Estimated minus measured round trips per request (negative would be an estimate below the measure)', buckets: [-1, 0, 1, 2, 3, 5, 8, 13, 21, 50], registry }).series({});
    this.#documents = new BatchedHistogram({ name: 'docjoin_request_mongo_documents', help: 'Documents MongoDB returned per request', buckets: [0, 1, 10, 50, 100, 500, 1000, 5000, 10000, 100000], registry }).series({});
    this.#bytes = new BatchedHistogram({ name: 'docjoin_request_mongo_bytes', help: 'Reply bytes from MongoDB per request', buckets: [0, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8], registry }).series({});
    this.#fieldRoundTrips = new BatchedCounter({ name: 'docjoin_field_round_trips_total', help: 'MongoDB commands each relation field took part in, by strategy', labelNames: ['field', 'strategy'], registry });
    this.#fieldDocuments = new BatchedCounter({ name: 'docjoin_field_documents_total', help: 'Documents fetched for each relation field, by strategy', labelNames: ['field', 'strategy'], registry });
    this.#snapshotHits = new BatchedCounter({ name: 'docjoin_snapshot_hits_total', help: 'Snapshot reads served from the copy', labelNames: ['field'], registry });
    this.#snapshotMisses = new BatchedCounter({ name: 'docjoin_snapshot_misses_total', help: 'Snapshot reads that fell back to the join', labelNames: ['field'], registry });
    this.#fanOut = new BatchedCounter({ name: 'docjoin_write_fan_out_documents_total', help: 'Documents modified by writes, per collection (a write and every copy it kept true)', labelNames: ['collection'], registry });
    this.#rejections = new BatchedCounter({ name: 'docjoin_cost_limit_rejections_total', help: 'Operations rejected before execution by a cost limit (COST_LIMIT_EXCEEDED)', labelNames: ['limit'], registry });
    this.#estimateExceeded = new BatchedCounter({
      name: 'docjoin_estimate_exceeded_total',
      help: 'Operations that cost more than their static estimate, by measure (roundTrips, documents): extensions.cost.estimateExceeded',
      labelNames: ['measure'],
      registry,
    });
    this.#mongoUp = new Gauge({ name: 'docjoin_mongo_up', help: '1 while MongoDB answers its heartbeats, 0 during an outage', registers: [registry] });
    this.#droppedFieldErrors = new Counter({ name: 'docjoin_dropped_field_errors_total', help: 'Field errors graphql-js 16 left unhandled under a null it had already answered (graphql/graphql-js#3528), kept from ending the process', registers: [registry] });
    this.#planLookups = new BatchedCounter({ name: 'docjoin_plan_cache_lookups_total', help: 'Operation plans looked up in the plan cache: hit (planned before) or miss (planned now)', labelNames: ['outcome'], registry });
    this.#planHits = this.#planLookups.series({ outcome: 'hit' });
    this.#planMisses = this.#planLookups.series({ outcome: 'miss' });
    const cachedPlans = () => this.#cachedPlans();
    new Gauge({
      name: 'docjoin_plan_cache_plans',
      help: 'Operation plans in the plan cache (bounded; the least recently used goes first)',
      registers: [registry],
      collect() {
        this.set(cachedPlans());
      },
    });
    const admission = () => this.#admission();
    const documentsInFlight = () => this.#documentsInFlight();
    new Gauge({
      name: 'docjoin_operations',
      help: 'GraphQL operations held by the server now: running, queued for a slot, or awaiting the document budget (their slot lent to another)',
      labelNames: ['state'],
      registers: [registry],
      collect() {
        const { running, queued, lent } = admission();
        this.set({ state: 'running' }, running);
        this.set({ state: 'queued' }, queued);
        this.set({ state: 'awaiting_documents' }, lent);
      },
    });
    new Gauge({
      name: 'docjoin_documents_in_flight',
      help: 'Documents the running operations may fetch by their estimates (DOCJOIN_MAX_DOCUMENTS_IN_FLIGHT bounds it)',
      registers: [registry],
      collect() {
        this.set(documentsInFlight());
      },
    });
    collectDefaultMetrics({ register: registry });
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
    const operation = this.#operationSeries(request.operationName, request.executed);
    const outcome = request.errorCode ?? 'ok';
    let requests = operation.outcomes.get(outcome);
    if (!requests) operation.outcomes.set(outcome, (requests = this.#requests.series({ operation: operation.label, outcome })));
    requests.inc();
    if (request.durationSeconds !== undefined) operation.duration.observe(request.durationSeconds);
    if (request.rejectedLimit !== undefined) this.#rejections.series({ limit: request.rejectedLimit }).inc();
    const { cost } = request;
    if (!cost) return;
    operation.roundTrips.observe(cost.roundTrips);
    operation.estimated.observe(cost.estimatedRoundTrips);
    if (cost.estimatedRoundTrips > 0) this.#surplus.observe(cost.estimatedRoundTrips - cost.roundTrips);
    for (const measure of cost.estimateExceeded ?? []) this.#estimateExceeded.series({ measure }).inc();
    this.#documents.observe(cost.documents);
    this.#bytes.observe(cost.bytes);
    for (const field in cost.fields) {
      const fieldCost = cost.fields[field]!;
      const series = this.#fieldSeries(field, fieldCost.strategy);
      series.roundTrips.inc(fieldCost.roundTrips);
      series.documents.inc(fieldCost.documents);
      if (fieldCost.snapshotHits) (series.snapshotHits ??= this.#snapshotHits.series({ field })).inc(fieldCost.snapshotHits);
      if (fieldCost.snapshotMisses) (series.snapshotMisses ??= this.#snapshotMisses.series({ field })).inc(fieldCost.snapshotMisses);
    }
    const fanOut = cost.writes?.fanOut;
    for (const collection in fanOut) {
      let series = this.#fanOutSeries.get(collection);
      if (!series) this.#fanOutSeries.set(collection, (series = this.#fanOut.series({ collection })));
      series.inc(fanOut[collection]!);
    }
  }

  /** One lookup in the plan cache (operation/plan/operation-planner.ts). */
  planLookup(hit: boolean): void {
    (hit ? this.#planHits : this.#planMisses).inc();
  }

  /** Where docjoin_plan_cache_plans reads the number of cached plans at each scrape. */
  watchPlans(count: () => number): void {
    this.#cachedPlans = count;
  }

  /** The HTTP server's admission control, read when scraped. */
  watchAdmission(figures: () => AdmissionFigures): void {
    this.#admission = figures;
  }

  watchDocumentsInFlight(count: () => number): void {
    this.#documentsInFlight = count;
  }

  /** One field error graphql-js left unhandled (errors/dropped-field-errors.ts). */
  droppedFieldError(): void {
    this.#droppedFieldErrors.inc();
  }

  mongoReachable(up: boolean): void {
    this.#mongoUp.set(up ? 1 : 0);
  }

  #operationSeries(name: string | undefined, executed: boolean): OperationSeries {
    const label = name ?? 'anonymous';
    const known = this.#operations.get(label);
    if (known) return known;
    const chosen = name !== undefined;
    if (chosen && (!executed || label.length > MAX_OPERATION_NAME_LENGTH || this.#operations.size >= MAX_OPERATION_NAMES)) return (this.#otherOperations ??= this.#newOperationSeries('other'));
    const series = this.#newOperationSeries(label);
    this.#operations.set(label, series);
    return series;
  }

  #newOperationSeries(label: string): OperationSeries {
    const labels = { operation: label };
    return { label, outcomes: new Map(), duration: this.#duration.series(labels), roundTrips: this.#roundTrips.series(labels), estimated: this.#estimated.series(labels) };
  }

  #fieldSeries(field: string, strategy: string): FieldSeries {
    let byStrategy = this.#fields.get(field);
    if (!byStrategy) this.#fields.set(field, (byStrategy = new Map()));
    let series = byStrategy.get(strategy);
    if (!series) {
      const labels = { field, strategy };
      byStrategy.set(strategy, (series = { roundTrips: this.#fieldRoundTrips.series(labels), documents: this.#fieldDocuments.series(labels) }));
    }
    return series;
  }
}
