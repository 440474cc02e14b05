import { isDbUnavailable } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';

/**
 * The map upkeep of one API process, once a second. First, until it succeeds: seeds:hidden is
 * built afresh (then held maps are checked with one HEXISTS), the map cache is trimmed to this
 * process's MAP_CACHE_MAX_BYTES (it may have been lowered since the maps were kept), and seeds of
 * the layout before the seed index are moved into it. Then the cache is told
 * which maps this process served from its own memory, so its least-recently-read order follows
 * every process's reads without a write per read; touches lost while Redis is away only make an
 * eviction less well chosen.
 */
export function startMapUpkeep({ store, config, logger, mapMemory, hiddenSeeds }: ApiDeps): {
  stop(): Promise<void>;
} {
  let started = false;
  const tick = async () => {
    try {
      if (!started) {
        await hiddenSeeds.build();
        const evicted = await store.trimMapCache(config.MAP_CACHE_MAX_BYTES);
        if (evicted > 0) logger.info({ evicted }, 'map cache trimmed to MAP_CACHE_MAX_BYTES');
        const moved = await store.migrateSeedIndex();
        if (moved > 0) logger.info({ moved }, 'seeds moved into the seed index from the old layout');
        started = true;
      }
      await store.touchCachedMaps(mapMemory.takeReads());
    } catch (err) {
      if (!isDbUnavailable(err)) logger.error({ err }, 'map cache upkeep failed');
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), 1_000);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await tick();
    },
  };
}
