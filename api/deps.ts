import type { Config } from '../runtime/config.ts';
import type { Store } from '../store/index.ts';
import type { Logger } from '../runtime/logger.ts';
import type { HiddenSeeds } from './maps/hidden-seeds.ts';
import type { MapMemoryCache } from './maps/memory-cache.ts';
import type { mapRebuilds } from './maps/rebuilds.ts';
import type { Metrics } from './metrics.ts';
import type { Probe } from './probe/index.ts';
import type { RequestCounter } from './jobs/request-counter.ts';
import type { TrustProxy } from './http/trust-proxy.ts';

/** What every route and job of the API is built from. */
export interface ApiDeps {
  config: Config;
  store: Store;
  logger: Logger;
  /** Confirms a game server answers at an address (self-claim). */
  probe: Probe;
  /** When this process started, by the injected clock (ms). */
  startedAt: number;
  /** Counts API requests in memory; flushed to Redis every second. */
  requests: RequestCounter;
  metrics: Metrics;
  /** `TRUST_PROXY`, compiled: whose forwarded headers (client IP, https) are believed. */
  trustProxy: TrustProxy;
  /** This process's hot map bytes (MAP_MEMORY_CACHE_BYTES). */
  mapMemory: MapMemoryCache;
  /** The one-HEXISTS visibility check of those bytes. */
  hiddenSeeds: HiddenSeeds;
  /** Maps in no cache, rebuilt from their seed: one bounded pool for every read that needs one. */
  rebuilds: ReturnType<typeof mapRebuilds>;
}
