import type { StoreContext } from './context.ts';

// The map cache in Redis: compressed map bodies under a hard cap of bytes, least recently read
// evicted first (store/scripts/includes/map-cache.lua). Maps are derived data: whatever is not
// cached is rebuilt from the seed.

/** A map as sent: its strong ETag (of the JSON) and its two stored codings. */
export interface MapBodies {
  etag: string;
  br: Buffer;
  gz: Buffer;
}

/** A map's entry in the seed index, as its generator makes it. */
export interface MapSummary {
  roomCount: number;
  spawns: number;
  markers: number;
}

/**
 * Keeps a rebuilt map when it fits under `capBytes`, evicting least recently read maps first, in
 * place of another version's; with `summary`, the seed's index entry is brought up to date.
 */
export async function cacheMap(
  ctx: StoreContext,
  seed: number,
  bodies: MapBodies,
  capBytes: number,
  summary?: MapSummary,
): Promise<boolean> {
  const { etag, br, gz } = bodies;
  const index = summary ? [summary.roomCount, summary.spawns, summary.markers] : ['', '', ''];
  return (await ctx.redis.cacheMap(ctx.prefix, seed, capBytes, etag, br, gz, ...index)) === 1;
}

/** Evicts least recently read maps until the cache is under `capBytes`; returns how many. */
export async function trimMapCache(ctx: StoreContext, capBytes: number): Promise<number> {
  return ctx.redis.trimMapCache(ctx.prefix, capBytes);
}

/** Maps read from a process's own memory, least recent first: they become the most recent here. */
export async function touchCachedMaps(ctx: StoreContext, seeds: readonly number[]): Promise<number> {
  if (seeds.length === 0) return 0;
  return ctx.redis.touchCachedMaps(ctx.prefix, ...seeds.map(String));
}

export interface MapCacheState {
  /** Bytes charged for the cached maps (bodies at their allocation size, plus their keys). */
  bytes: number;
  /** Cached seeds, least recently read first. */
  seeds: number[];
}

export async function readMapCacheState(ctx: StoreContext): Promise<MapCacheState> {
  const [bytes, seeds] = await Promise.all([
    ctx.redis.hget(`${ctx.prefix}mapcache:state`, 'bytes'),
    ctx.redis.zrange(`${ctx.prefix}mapcache:lru`, '0', '-1'),
  ]);
  return { bytes: Number(bytes ?? 0), seeds: seeds.map(Number) };
}
