import { buildMapJson, compressMap } from '../generator/map-bytes.ts';
import { generateMap } from '../generator/index.ts';
import type { Store } from '../store/index.ts';
import { percentile, round, spawnEntry, startProcess } from './lib.ts';

/** 3. The generator function alone, and first request → 200 through the queue with one worker. */
export async function benchGeneration(store: Store, env: Record<string, string>) {
  const time = async (fn: (seed: number) => unknown, count: number) => {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const seed = 1 + ((i * 2654435761) % 2147483646);
      const t = performance.now();
      await fn(seed);
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    const total = times.reduce((a, b) => a + b, 0);
    return {
      mapsPerSecond: Math.round((count / total) * 1000),
      medianMs: round(percentile(times, 50)),
      p99Ms: round(percentile(times, 99)),
    };
  };
  await time(generateMap, 200);
  const pure = await time(generateMap, 3000);
  const listEntry = await time(buildMapJson, 1000);
  const stored = await time((seed) => compressMap(buildMapJson(seed).json), 500);

  const api = await startProcess('api/main.ts', env);
  const worker = spawnEntry('generator/main.ts', env);
  // Ready once its queue connection shows in CLIENT LIST.
  while (!String(await store.ctx.redis.client('LIST')).includes('name=seedblock-generator-queue')) {
    await new Promise((r) => setTimeout(r, 50));
  }
  const latencies: number[] = [];
  try {
    for (let i = 0; i < 30; i++) {
      const seed = 50_000_000 + i;
      const t = performance.now();
      let status = 0;
      while (status !== 200) {
        status = (await fetch(`${api.url}/api/maps/${seed}`, { headers: { 'accept-encoding': 'br' } }))
          .status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 2));
      }
      latencies.push(performance.now() - t);
    }
  } finally {
    await Promise.all([api.stop(), worker.stop()]);
  }
  latencies.sort((a, b) => a - b);
  const endToEnd = {
    medianMs: round(percentile(latencies, 50), 1),
    p99Ms: round(percentile(latencies, 99), 1),
  };
  console.log('\n3. Generation');
  console.table({
    'generateMap (pure)': pure,
    'generate + validate + JSON (MAP_CACHE_MAX_BYTES=0, and a rebuild)': listEntry,
    'generate + validate + JSON + br + gzip': stored,
  });
  console.log('first request → 200 through the queue, one worker (polling every 2 ms):');
  console.table({ 'end to end': endToEnd });
  return { generateMap: pure, generateValidateJson: listEntry, generateValidateCompress: stored, endToEnd };
}
