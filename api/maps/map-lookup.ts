import type { IncomingMessage } from 'node:http';
import { GENERATOR_VERSION } from '../../generator/version.ts';
import { failureFields, RATE_LIMITS, type Store } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';
import { byIp, rateLimited } from '../http/rate-limit.ts';
import { blockedError, mapUnavailable } from '../http/read-answers.ts';
import type { MapBytes, MapSource } from './memory-cache.ts';
import { RebuildsBusyError, type RebuiltMap } from './rebuilds.ts';

/**
 * Throws the refusal (403 `blocked`) unless `seed` may be shown now; `countView` counts a refused
 * view (spec 4.7's map reads do, a preview picture does not).
 */
export async function assertVisible(store: Store, seed: number, countView: boolean): Promise<void> {
  const block = await store.checkSeedBlock(seed, { countView });
  if (block.kind === 'window') throw blockedError({ kind: 'blocked', until: block.until });
  if (block.kind === 'permanent') throw blockedError(block);
}

/** The bytes of a seed's map and where they came from; null while the generator has it queued. */
export type FoundMap = [MapBytes, MapSource] | null;

/**
 * How every read of a seed's map (the map itself, its preview picture) finds bytes this process
 * does not hold: one round trip does the block check, the seed index, the map cache, the job and
 * the uncached-seed limit (read-map.lua), then the answer becomes bytes or the spec's refusal
 * (403 `blocked`, 429, 503 `map unavailable`). A dumped seed in no cache is rebuilt from the seed
 * (a map is a pure function of it: same bytes, same ETag), offered to the map cache and held here;
 * the caller checks once more for a window that opened meanwhile.
 */
export function mapLookup({ store, config, trustProxy, mapMemory, rebuilds, logger }: ApiDeps) {
  const uncachedLimit = RATE_LIMITS.uncachedMapsPerIp.limit * config.RATE_LIMIT_MULTIPLIER;
  const clientKey = byIp(trustProxy);

  const rebuild = (seed: number): Promise<RebuiltMap> =>
    rebuilds(seed).catch((err: unknown) => {
      throw err instanceof RebuildsBusyError ? mapUnavailable() : err;
    });

  async function rebuiltAndKept(seed: number): Promise<MapBytes> {
    const bytes = await rebuild(seed);
    // Keeping it (and the seed's index entry as this generator makes it) is a favour to the next
    // read: a Redis that refuses (at maxmemory, say) loses this read nothing.
    await store
      .cacheMap(seed, bytes, config.MAP_CACHE_MAX_BYTES, bytes.summary)
      .catch((err: unknown) =>
        logger.warn({ ...failureFields(err), seed }, 'rebuilt map not kept in the map cache'),
      );
    return mapMemory.keep(seed, bytes);
  }

  /** The map of `seed` for `req`'s client: a read refused throws; a seed still queued is null. */
  async function find(seed: number, req: IncomingMessage): Promise<FoundMap> {
    const read = await store.readMap({
      seed,
      clientKey: clientKey(req),
      queueMax: config.QUEUE_MAX,
      uncachedLimit,
      generatorVersion: GENERATOR_VERSION,
    });
    switch (read.kind) {
      case 'cached':
        return [mapMemory.keep(seed, read.bodies), 'cache'];
      case 'rebuild':
        return [await rebuiltAndKept(seed), 'rebuilt'];
      case 'pending':
        return null;
      case 'limited':
        throw await rateLimited(store, read.resetAt);
      case 'blocked':
      case 'permanent':
        throw blockedError(read);
      case 'full':
      case 'error':
        throw mapUnavailable();
    }
  }

  return {
    find,
    /**
     * As `find`, but a seed still queued is made here, for this answer alone (the generator
     * still indexes and caches it).
     */
    async findOrMake(seed: number, req: IncomingMessage): Promise<MapBytes> {
      return (await find(seed, req))?.[0] ?? (await rebuild(seed));
    },
  };
}
export type MapLookup = ReturnType<typeof mapLookup>;
