import { Counter, Histogram, Registry } from 'prom-client';
import { BatchedCounter, BatchedHistogram } from '../../../src/observability/batched-metrics';

/** The exposition's lines with each sample's labels in name order (Prometheus does not order labels). */
function normalized(exposition: string): string[] {
  return exposition
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const sample = /^(\w+)\{(.*)\} (\S+)$/.exec(line);
      if (!sample) return line;
      const labels = sample[2]!.split(/,(?=\w+=")/).sort();
      return `${sample[1]}{${labels.join(',')}} ${sample[3]}`;
    })
    .sort();
}

const BUCKETS = [0, 1, 2.5, 10];
const OBSERVATIONS: [string, number][] = [
  ['Shelves', 0],
  ['Shelves', 2],
  ['anonymous', 2.5],
  ['Shelves', 7],
  ['anonymous', 11],
  ['Shelves', -3],
  ['quote"and\\slash', 1],
];

describe('BatchedHistogram', () => {
  it('is scraped exactly as a prom-client Histogram fed the same observations, labelled or not', async () => {
    const batchedRegistry = new Registry();
    const promRegistry = new Registry();
    const batched = new BatchedHistogram({ name: 'x_seconds', help: 'latency', labelNames: ['operation'], buckets: BUCKETS, registry: batchedRegistry });
    const unlabelled = new BatchedHistogram({ name: 'y_bytes', help: 'size', buckets: BUCKETS, registry: batchedRegistry }).series({});
    const reference = new Histogram({ name: 'x_seconds', help: 'latency', labelNames: ['operation'], buckets: BUCKETS, registers: [promRegistry] });
    const unlabelledReference = new Histogram({ name: 'y_bytes', help: 'size', buckets: BUCKETS, registers: [promRegistry] });
    for (const [operation, value] of OBSERVATIONS) {
      batched.series({ operation }).observe(value);
      reference.observe({ operation }, value);
      unlabelled.observe(value * 10);
      unlabelledReference.observe(value * 10);
    }
    const exposed = await batchedRegistry.metrics();
    expect(normalized(exposed)).toEqual(normalized(await promRegistry.metrics()));
    expect(exposed).toContain('x_seconds_bucket{operation="Shelves",le="2.5"} 3');
    expect(exposed).toContain('x_seconds_sum{operation="Shelves"} 6');
    expect(exposed).toContain('y_bytes_count 7');
  });

  it('keeps one series per label set, and resets with the registry', async () => {
    const registry = new Registry();
    const histogram = new BatchedHistogram({ name: 'x', help: 'x', labelNames: ['operation'], buckets: BUCKETS, registry });
    expect(histogram.series({ operation: 'a' })).toBe(histogram.series({ operation: 'a' }));
    histogram.series({ operation: 'a' }).observe(1);
    registry.resetMetrics();
    expect(await registry.metrics()).toContain('x_count{operation="a"} 0');
  });

  it('refuses unordered buckets, unknown labels and values that are not finite', () => {
    const registry = new Registry();
    expect(() => new BatchedHistogram({ name: 'x', help: 'x', buckets: [1, 1], registry })).toThrow('Histogram x: buckets must be finite numbers in ascending order, got [1, 1]');
    const histogram = new BatchedHistogram({ name: 'y', help: 'y', labelNames: ['operation'], buckets: BUCKETS, registry });
    expect(() => histogram.series({ operation: 'a', outcome: 'ok' } as { operation: string })).toThrow('Unknown label outcome; the metric\'s labels are operation');
    expect(() => histogram.series({ operation: 'a' }).observe(Number.NaN)).toThrow('A histogram observation must be a finite number, not NaN');
  });
});

describe('BatchedCounter', () => {
  it('hands its sums to a prom-client Counter at each scrape, and a series counted 0 still appears', async () => {
    const registry = new Registry();
    const counter = new BatchedCounter({ name: 'requests_total', help: 'requests', labelNames: ['operation', 'outcome'], registry });
    const ok = counter.series({ operation: 'Shelves', outcome: 'ok' });
    ok.inc();
    ok.inc(2);
    counter.series({ operation: 'Shelves', outcome: 'BAD_USER_INPUT' }).inc(0);
    const first = await registry.metrics();
    expect(first).toContain('requests_total{operation="Shelves",outcome="ok"} 3');
    expect(first).toContain('requests_total{operation="Shelves",outcome="BAD_USER_INPUT"} 0');
    ok.inc();
    expect(await registry.metrics()).toContain('requests_total{operation="Shelves",outcome="ok"} 4');
    expect(await registry.metrics()).toContain('requests_total{operation="Shelves",outcome="ok"} 4');
  });

  it('is scraped as a prom-client Counter with the same increments', async () => {
    const batchedRegistry = new Registry();
    const promRegistry = new Registry();
    const batched = new BatchedCounter({ name: 'docs_total', help: 'documents', labelNames: ['field'], registry: batchedRegistry });
    const reference = new Counter({ name: 'docs_total', help: 'documents', labelNames: ['field'], registers: [promRegistry] });
    for (const [field, value] of OBSERVATIONS) {
      batched.series({ field }).inc(Math.abs(value));
      reference.inc({ field }, Math.abs(value));
    }
    expect(normalized(await batchedRegistry.metrics())).toEqual(normalized(await promRegistry.metrics()));
  });
});
