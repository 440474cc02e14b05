import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore, redisReady } from '../store/index.ts';
import { startLocalRedis } from '../scripts/redis-server.ts';
import { benchCachedMaps, benchCachedMapsData } from './cached-maps.ts';
import { benchGeneration } from './generation.ts';
import { benchMemory } from './memory.ts';
import { benchPreview } from './preview.ts';
import { benchReports } from './reports.ts';
import { benchSeedList } from './seed-list.ts';
import { ROOT } from './lib.ts';

// `npm run bench`: the six measurements of our performance claims, against a throwaway
// redis-server on loopback. Prints a table per section and writes bench/results.json.
// Every HTTP load is wrk's (bench/wrk.ts). BENCH_SECONDS sets the length of each load run
// (default 8); BENCH_SECTIONS picks sections; BENCH_CPU_PROF=<dir> profiles every process started.

const dir = mkdtempSync(join(tmpdir(), 'seedblock-bench-'));
const redis = await startLocalRedis({ dir, durable: false });
const redisPid = redis.process.pid!;
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
const memory = storeFor('bx:');
const stores = [maps, reportsStore, list, generation, memory];
try {
  for (const store of stores) await redisReady(store.ctx.redis);
  // BENCH_SECTIONS=1,3 runs only those sections (the seed list needs no other).
  const only = new Set((process.env.BENCH_SECTIONS ?? '1,2,3,4,5,6').split(',').map(Number));
  const section = async <T>(n: number, run: () => Promise<T>) => (only.has(n) ? run() : undefined);
  const results = {
    machine: { cpus: cpus().length, node: process.version, at: new Date().toISOString() },
    cachedMaps: await section(1, () => benchCachedMaps(maps, envFor('bm:'), redisPid)),
    reports: await section(2, () => benchReports(reportsStore, envFor('br:'), redisPid, dir)),
    generation: await section(3, () => benchGeneration(generation, envFor('bg:'))),
    seedList: await section(4, () => benchSeedList(list, envFor('bl:'), redisPid)),
    memory: await section(5, async () => {
      if (!only.has(1)) await benchCachedMapsData(maps);
      return benchMemory(memory, maps, envFor('bx:'));
    }),
    preview: await section(6, () => benchPreview()),
  };
  writeFileSync(join(ROOT, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  console.log('\nwrote bench/results.json');
} finally {
  for (const store of stores) await store.close();
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
}
