import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, redisReady } from '../store/index.ts';
import { startLocalRedis } from '../scripts/redis-server.ts';
import { benchCachedMaps } from './cached-maps.ts';
import { benchGeneration } from './generation.ts';
import { benchMemory } from './memory.ts';
import { benchReports } from './reports.ts';
import { benchSeedList } from './seed-list.ts';
import { ROOT } from './lib.ts';

// `npm run bench`: the five measurements of our performance claims, against a throwaway
// redis-server on loopback. Prints a table per section and writes bench/results.json.
// BENCH_SECONDS sets the length of each load run (default 8).

const dir = mkdtempSync(join(tmpdir(), 'seedblock-bench-'));
const redis = await startLocalRedis({ dir, durable: false });
const envFor = (prefix: string) => ({
  REDIS_URL: redis.url,
  REDIS_PREFIX: prefix,
  NODE_ENV: 'production',
  LOG_LEVEL: 'info',
  RATE_LIMIT_MULTIPLIER: '1000000',
});
const storeFor = (prefix: string) =>
  openStore({ redisUrl: redis.url, prefix, clock: 'system', name: 'seedblock-bench' });

const maps = storeFor('bm:');
const reportsStore = storeFor('br:');
const list = storeFor('bl:');
const generation = storeFor('bg:');
try {
  await redisReady(maps.ctx.redis);
  const results = {
    machine: {
      cpus: (await import('node:os')).cpus().length,
      node: process.version,
      at: new Date().toISOString(),
    },
    cachedMaps: await benchCachedMaps(maps, envFor('bm:')),
    reports: await benchReports(reportsStore, envFor('br:')),
    generation: await benchGeneration(generation, envFor('bg:')),
    seedList: await benchSeedList(list, envFor('bl:')),
    memory: await benchMemory(maps, list),
  };
  writeFileSync(join(ROOT, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log('\nwrote bench/results.json');
} finally {
  for (const store of [maps, reportsStore, list, generation]) await store.close();
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
}
