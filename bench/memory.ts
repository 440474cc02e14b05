import type { Store } from '../store/index.ts';
import { round, spawnEntry, startProcess } from './lib.ts';

const FRESH_SEEDS = 3_000;

const usedMemory = async (store: Store) =>
  Number(/used_memory:(\d+)/.exec(await store.ctx.redis.info('memory'))![1]);

/**
 * 5. Redis bytes per dumped seed: INFO used_memory before and right after FRESH_SEEDS seeds are
 * generated through GET /jobs with MAP_CACHE_MAX_BYTES=0 (the durable index only), and what the
 * map cache charges per map (the maps of section 1).
 */
export async function benchMemory(indexStore: Store, cacheStore: Store, env: Record<string, string>) {
  const cacheEnv = { ...env, MAP_CACHE_MAX_BYTES: '0' };
  const api = await startProcess('api/main.ts', cacheEnv);
  const worker = spawnEntry('generator/main.ts', cacheEnv);
  let perSeed: number;
  try {
    // One seed first, so the scripts are loaded and the queue has run once before measuring.
    const seeds = Array.from({ length: FRESH_SEEDS + 1 }, (_, i) => 70_000_000 + i * 37);
    const dumped = async () =>
      Number((await indexStore.ctx.redis.hget(`${indexStore.ctx.prefix}seeds:index`, 'seeds')) ?? 0);
    const until = async (count: number) => {
      while ((await dumped()) < count) await new Promise((r) => setTimeout(r, 50));
    };
    await fetch(`${api.url}/api/jobs/${seeds[0]}`);
    await until(1);
    const before = await usedMemory(indexStore);
    for (let i = 1; i < seeds.length; i += 8) {
      await Promise.all(
        seeds
          .slice(i, i + 8)
          .map((seed) => fetch(`${api.url}/api/jobs/${seed}`).then((r) => r.arrayBuffer())),
      );
    }
    await until(seeds.length);
    perSeed = (await usedMemory(indexStore)) - before;
    perSeed /= FRESH_SEEDS;
  } finally {
    await Promise.all([api.stop(), worker.stop()]);
  }

  const cache = await cacheStore.readMapCacheState();
  const perCachedMap = cache.bytes / cache.seeds.length;
  const mib = (bytes: number) => round(bytes / 2 ** 20, 1);
  const table = {
    'dumped seed (durable index, goal ≤ 160 B)': {
      bytes: Math.round(perSeed),
      'per 1M seeds (MiB)': mib(perSeed * 1e6),
    },
    'cached map (br + gzip, as charged to MAP_CACHE_MAX_BYTES)': {
      bytes: Math.round(perCachedMap),
      'per 1M seeds (MiB)': mib(perCachedMap * 1e6),
    },
  };
  console.log(`\n5. Redis memory (INFO used_memory over ${FRESH_SEEDS} seeds generated through GET /jobs)`);
  console.table(table);
  return table;
}
