import { Counter, type Histogram, type Registry } from 'prom-client';

/**
 * Prometheus metrics for the request path. prom-client checks and hashes the labels of every
 * observation and keys histogram buckets by their bound as a string, about a microsecond each; a request
 * makes a dozen. Here the caller keeps a series per label set, recording is arithmetic on plain numbers,
 * and prom-client's registry reads the totals when /metrics is scraped, in its own exposition format.
 */

type Labels<L extends string> = Readonly<Record<L, string>>;

/** A series of a BatchedCounter: `inc` adds to a number that the next scrape hands to prom-client. */
export class CounterSeries {
  pending = 0;

  inc(by = 1): void {
    this.pending += by;
  }
}

/** A prom-client Counter whose increments are added up per series and reach it at scrape time. */
export class BatchedCounter<L extends string = never> {
  readonly #counter: Counter<L>;
  readonly #series: SeriesByLabels<L, CounterSeries>;

  constructor(config: { name: string; help: string; labelNames?: readonly L[]; registry: Registry }) {
    const labelNames = config.labelNames ?? [];
    this.#series = new SeriesByLabels(labelNames, () => new CounterSeries());
    this.#counter = new Counter<L>({ name: config.name, help: config.help, labelNames, registers: [config.registry], collect: () => this.#flush() });
  }

  /** The series of one label set; keep it, it is the same object on every call. */
  series(labels: Labels<L>): CounterSeries {
    return this.#series.get(labels);
  }

  #flush(): void {
    for (const { labels, series } of this.#series.all()) {
      // An increment of 0 still makes the series appear, as a direct inc would.
      this.#counter.inc(labels as Partial<Record<L, string>>, series.pending);
      series.pending = 0;
    }
  }
}

/** A series of a BatchedHistogram: its bucket counts (not cumulative), sum and count. */
export class HistogramSeries {
  readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(private readonly bounds: readonly number[]) {
    this.counts = bounds.map(() => 0);
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) throw new TypeError(`A histogram observation must be a finite number, not ${value}`);
    const { bounds } = this;
    for (let bucket = 0; bucket < bounds.length; bucket++) {
      if (value <= bounds[bucket]!) {
        this.counts[bucket]!++;
        break;
      }
    }
    this.sum += value;
    this.count++;
  }
}

/** What prom-client's registry reads from a metric when it is scraped (the shape a Histogram's `get()` returns). */
interface ScrapedMetric {
  readonly name: string;
  readonly help: string;
  readonly type: 'histogram';
  readonly aggregator: 'sum';
  readonly values: { readonly metricName: string; readonly labels: Readonly<Record<string, string | number>>; readonly value: number }[];
}

/**
 * A Prometheus histogram registered in a prom-client registry, exposed exactly as a prom-client
 * Histogram with the same buckets would be: `_bucket` series per bound and `+Inf`, `_sum`, `_count`.
 */
export class BatchedHistogram<L extends string = never> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  readonly #bounds: readonly number[];
  readonly #series: SeriesByLabels<L, HistogramSeries>;

  constructor(config: { name: string; help: string; buckets: readonly number[]; labelNames?: readonly L[]; registry: Registry }) {
    const ascending = config.buckets.every((bound, index) => Number.isFinite(bound) && (index === 0 || bound > config.buckets[index - 1]!));
    if (config.buckets.length === 0 || !ascending) throw new Error(`Histogram ${config.name}: buckets must be finite numbers in ascending order, got [${config.buckets.join(', ')}]`);
    this.name = config.name;
    this.help = config.help;
    const bounds = [...config.buckets];
    this.#bounds = bounds;
    this.#series = new SeriesByLabels(config.labelNames ?? [], () => new HistogramSeries(bounds));
    // The registry reads a metric through get(), which this class has in the shape prom-client's Histogram gives.
    config.registry.registerMetric(this as unknown as Histogram<L>);
  }

  /** The series of one label set; keep it, it is the same object on every call. */
  series(labels: Labels<L>): HistogramSeries {
    return this.#series.get(labels);
  }

  async get(): Promise<ScrapedMetric> {
    const bucketName = `${this.name}_bucket`;
    const values: ScrapedMetric['values'] = [];
    for (const { labels, series } of this.#series.all()) {
      let cumulative = 0;
      this.#bounds.forEach((bound, bucket) => {
        cumulative += series.counts[bucket]!;
        values.push({ metricName: bucketName, labels: { ...labels, le: bound }, value: cumulative });
      });
      values.push({ metricName: bucketName, labels: { ...labels, le: '+Inf' }, value: series.count });
      values.push({ metricName: `${this.name}_sum`, labels, value: series.sum });
      values.push({ metricName: `${this.name}_count`, labels, value: series.count });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** Zeroes every series (prom-client's registry calls it from `resetMetrics()`). */
  reset(): void {
    for (const { series } of this.#series.all()) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }
}

/** A metric's series by label set, each made once, on the first ask for its labels. */
class SeriesByLabels<L extends string, S> {
  readonly #entries = new Map<string, { readonly labels: Labels<L>; readonly series: S }>();

  constructor(
    private readonly labelNames: readonly L[],
    private readonly create: () => S,
  ) {}

  get(labels: Labels<L>): S {
    for (const name of Object.keys(labels)) {
      if (!this.labelNames.includes(name as L)) throw new Error(`Unknown label ${name}; the metric's labels are ${this.labelNames.join(', ') || 'none'}`);
    }
    const key = this.labelNames.map((name) => labels[name]).join('\u0000');
    const known = this.#entries.get(key);
    if (known) return known.series;
    const series = this.create();
    this.#entries.set(key, { labels: { ...labels }, series });
    return series;
  }

  all(): Iterable<{ readonly labels: Labels<L>; readonly series: S }> {
    return this.#entries.values();
  }
}
