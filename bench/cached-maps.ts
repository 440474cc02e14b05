import { buildStoredMap } from '../generator/compress-map.ts';
import type { Store } from '../store/index.ts';
import { load, round, seconds, startProcess, type LoadResult } from './lib.ts';

/**
 * 1. Cached map reads through the full stack against the bare baseline, side by side: each
 * measured twice in alternation and the better run kept, so a passing hiccup hurts neither.
 */
export async function benchCachedMapsData(store: Store): Promise<number[]> {
  const seeds = Array.from({ length: 64 }, (_, i) => 1_000_000 + i * 7919);
  for (const seed of seeds) await store.finishJob(buildStoredMap(seed));
  return seeds;
}

export async function benchCachedMaps(store: Store, env: Record<string, string>) {
  const seeds = await benchCachedMapsData(store);

  const api = await startProcess('api/main.ts', env);
  const bare = await startProcess('bench/bare-server.ts', env);
  const requests = seeds.map((seed) => ({ path: `/api/maps/${seed}` }));
  const results: Record<string, unknown> = {};
  try {
    for (const [label, headers] of [
      ['identity', {}],
      ['br, gzip', { 'accept-encoding': 'br, gzip' }],
    ] as const) {
      const runs: Record<'api' | 'bare', LoadResult[]> = { api: [], bare: [] };
      for (const target of [api, bare]) await load({ url: target.url, requests, headers, duration: 2 });
      for (let round_ = 0; round_ < 2; round_++) {
        runs.api.push(await load({ url: api.url, requests, headers, duration: seconds }));
        runs.bare.push(await load({ url: bare.url, requests, headers, duration: seconds }));
      }
      const best = (xs: LoadResult[]) => xs.reduce((a, b) => (b.rps > a.rps ? b : a));
      const ours = best(runs.api);
      const baseline = best(runs.bare);
      results[label] = { seedblock: ours, baseline, ratio: round(ours.rps / baseline.rps, 2) };
      console.log(`\n1. Cached map reads, Accept-Encoding: ${label}`);
      console.table({ seedblock: ours, 'bare express+ioredis': baseline });
      console.log(`ratio seedblock / baseline: ${round(ours.rps / baseline.rps, 2)}`);
    }
  } finally {
    await Promise.all([api.stop(), bare.stop()]);
  }
  return results;
}
