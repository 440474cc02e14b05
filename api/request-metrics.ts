import type { Metric, Registry } from 'prom-client';

// The two per-request metrics (seedblock_http_requests_total and the latency histogram), counted in
// plain numbers and turned into prom-client's form only when scraped. prom-client's own Counter
// and Histogram hash the label object, validate it and allocate on every inc/observe, children
// included: about a tenth of a cached map read's CPU (bench section 1).

const BUCKETS = [0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

interface Tally {
  labels: { route: string; method: string; status: string };
  count: number;
  sum: number;
  /** Observations per bucket (the last one past every bound), not yet cumulative. */
  inBucket: Float64Array;
}

interface Sample {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

/** A metric as prom-client's Registry reads it (registerMetric, then get() at each scrape). */
const metric = (name: string, help: string, type: 'counter' | 'histogram', values: () => Sample[]) =>
  ({
    name,
    help,
    type,
    aggregator: 'sum' as const,
    get: async () => ({ name, help, type, aggregator: 'sum' as const, values: values() }),
    reset() {},
  }) as unknown as Metric;

export function requestMetrics(registry: Registry) {
  // route → status → method: lookups of what the request has, no key built per request.
  const tallies = new Map<string, Map<number, Map<string, Tally>>>();
  const all: Tally[] = [];

  const tally = (route: string, method: string, status: number): Tally => {
    let byStatus = tallies.get(route);
    if (!byStatus) tallies.set(route, (byStatus = new Map()));
    let byMethod = byStatus.get(status);
    if (!byMethod) byStatus.set(status, (byMethod = new Map()));
    let t = byMethod.get(method);
    if (!t) {
      const labels = { route, method, status: String(status) };
      t = { labels, count: 0, sum: 0, inBucket: new Float64Array(BUCKETS.length + 1) };
      byMethod.set(method, t);
      all.push(t);
    }
    return t;
  };

  registry.registerMetric(
    metric('seedblock_http_requests_total', 'HTTP requests by route, method and status', 'counter', () =>
      all.map((t) => ({ labels: t.labels, value: t.count })),
    ),
  );
  const histogram = 'seedblock_http_request_duration_seconds';
  registry.registerMetric(
    metric(histogram, 'HTTP request latency by route, method and status', 'histogram', () =>
      all.flatMap((t) => {
        let cumulative = 0;
        const buckets = [...BUCKETS, '+Inf' as const].map((le, i) => {
          cumulative += t.inBucket[i]!;
          return { labels: { ...t.labels, le }, value: cumulative, metricName: `${histogram}_bucket` };
        });
        return [
          ...buckets,
          { labels: t.labels, value: t.sum, metricName: `${histogram}_sum` },
          { labels: t.labels, value: t.count, metricName: `${histogram}_count` },
        ];
      }),
    ),
  );

  /** Counts one answered request and its latency under its route pattern, method and status. */
  return (route: string, method: string, status: number, seconds: number): void => {
    const t = tally(route, method, status);
    t.count++;
    t.sum += seconds;
    let i = 0;
    while (i < BUCKETS.length && seconds > BUCKETS[i]!) i++;
    t.inBucket[i]!++;
  };
}
