import type { Request } from 'express';
import type { IncomingMessage } from 'node:http';
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import { isDbUnavailable, isStoreFailure, type Store } from '../store/index.ts';
import type { MapSource } from './maps/memory-cache.ts';
import { requestMetrics } from './request-metrics.ts';

/**
 * Gauges of state shared by every process, read from Redis at scrape time. While Redis is away a
 * gauge reads NaN (unknown) rather than failing the scrape: /metrics keeps showing this process,
 * its Redis errors included, when they matter most.
 */
function sharedStateGauges(registry: Registry, store: Store): void {
  new Gauge({
    name: 'seedblock_redis_up',
    help: 'Whether Redis answered this scrape (1) or not (0)',
    registers: [registry],
    async collect() {
      this.set(
        await store.ctx.redis.ping().then(
          () => 1,
          () => 0,
        ),
      );
    },
  });
  async function shared<T>(read: () => Promise<T>, write: (value: T | undefined) => void) {
    try {
      write(await read());
    } catch (err) {
      if (!isDbUnavailable(err)) throw err;
      write(undefined);
    }
  }
  new Gauge({
    name: 'seedblock_open_windows',
    help: 'Block windows open now',
    registers: [registry],
    collect() {
      return shared(store.openWindowSeeds, (seeds) => this.set(seeds?.size ?? NaN));
    },
  });
  new Gauge({
    name: 'seedblock_queue_depth',
    help: 'Generation jobs waiting (state=waiting) and in progress (state=active)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      return shared(store.queueDepth, (depth) => {
        this.set({ state: 'waiting' }, depth?.waiting ?? NaN);
        this.set({ state: 'active' }, depth?.active ?? NaN);
      });
    },
  });
  new Gauge({
    name: 'seedblock_map_cache_bytes',
    help: 'Bytes charged to the map cache in Redis (at most MAP_CACHE_MAX_BYTES)',
    registers: [registry],
    collect() {
      return shared(store.readMapCacheState, (state) => this.set(state?.bytes ?? NaN));
    },
  });
  new Gauge({
    name: 'seedblock_generation_seconds_sum',
    help: 'Total time spent generating maps, all workers (with _count: the mean)',
    registers: [registry],
    collect() {
      return shared(store.readGenerationTotals, (totals) => this.set(totals?.seconds ?? NaN));
    },
  });
  new Gauge({
    name: 'seedblock_generation_seconds_count',
    help: 'Maps generated, all workers',
    registers: [registry],
    collect() {
      return shared(store.readGenerationTotals, (totals) => this.set(totals?.count ?? NaN));
    },
  });
}

/**
 * Maps sent, by where their bytes came from, counted in plain numbers and published at scrape
 * time: a labelled prom-client inc hashes its labels on every call, and every map read counts one.
 */
function mapReadCounter(registry: Registry): (source: MapSource) => void {
  const mapReads: Record<MapSource, number> = { memory: 0, cache: 0, rebuilt: 0 };
  new Counter({
    name: 'seedblock_map_reads_total',
    help: "Maps sent, by where their bytes came from: this process's memory, the map cache in Redis, or rebuilt",
    labelNames: ['source'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [source, count] of Object.entries(mapReads)) this.inc({ source }, count);
    },
  });
  return (source) => {
    mapReads[source]++;
  };
}

/** Prometheus metrics of one API process (prom-client). */
export function createMetrics(store: Store) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const countRequest = requestMetrics(registry);
  const redisErrors = new Counter({
    name: 'seedblock_redis_errors_total',
    help: 'Requests answered 503 because Redis was unavailable',
    registers: [registry],
  });
  sharedStateGauges(registry, store);
  replicationGauges(registry, store);

  /**
   * Counts one answered request and its latency, labelled by the route pattern that served it:
   * `route` for the API's routes (their label is the route table's), else the express route that
   * matched (the viewer's, /metrics), else `unmatched`. The pattern, never the URL: seeds do not
   * become label values.
   */
  function recordRequest(req: IncomingMessage, status: number, seconds: number, route?: string) {
    const matched = (req as Request).route as { path: string } | undefined;
    countRequest(route ?? matched?.path ?? 'unmatched', req.method!, status, seconds);
  }

  return {
    registry,
    recordRequest,
    /** One map sent, by where its bytes came from. */
    countMapRead: mapReadCounter(registry),
    countError(err: unknown) {
      if (isStoreFailure(err)) redisErrors.inc();
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;

/**
 * What replication-watch.ts logs, as gauges read from this process's own state (no Redis call):
 * whether the replicas confirm acknowledged writes, how many confirmed the last one of how many
 * required, and whether this process's Redis is confirmed as the current master.
 */
function replicationGauges(registry: Registry, store: Store): void {
  const { replication, master } = store.ctx;
  new Gauge({
    name: 'seedblock_replicas_ackable',
    help: 'Whether the replicas confirmed the last acknowledged write (or probe) in time (1) or not (0: window-opening reports answer 503)',
    registers: [registry],
    collect() {
      this.set(replication.state.ackable ? 1 : 0);
    },
  });
  new Gauge({
    name: 'seedblock_replicas',
    help: 'Replicas that confirmed the last acknowledged write (state=confirmed), and that must (state=required)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'confirmed' }, replication.state.confirmed);
      this.set({ state: 'required' }, replication.state.required);
    },
  });
  new Gauge({
    name: 'seedblock_redis_master_confirmed',
    help: "Whether this process's Redis is confirmed as the current master (1) or not (0: map, job and seed-list reads answer 503)",
    registers: [registry],
    collect() {
      this.set(master.confirmed ? 1 : 0);
    },
  });
}
