import { buildMapJson, compressMap } from '../generator/map-bytes.ts';
import type { Store } from '../store/index.ts';
import { round, seconds, startProcess } from './lib.ts';
import { wrk, type LoadResult } from './wrk.ts';

const CODINGS = [
  { coding: 'br', headers: { 'accept-encoding': 'br, gzip' }, goal: 1.0 },
  { coding: 'gzip', headers: { 'accept-encoding': 'gzip' }, goal: 1.0 },
  { coding: 'identity', headers: {}, goal: 1.3 },
] as const;

/** 64 generated maps: in the seed index and the map cache, and as plain keys for the baseline. */
export async function benchCachedMapsData(store: Store): Promise<number[]> {
  const seeds = Array.from({ length: 64 }, (_, i) => 1_000_000 + i * 7919);
  for (const seed of seeds) {
    const { json, summary } = buildMapJson(seed);
    const bodies = await compressMap(json);
    await store.finishJob({ seed, ...summary, bodies }, 256 * 2 ** 20);
    const bare = `${store.ctx.prefix}bare:${seed}`;
    await store.ctx.redis.mset(`${bare}:br`, bodies.br, `${bare}:gzip`, bodies.gz, `${bare}:json`, json);
  }
  return seeds;
}

/**
 * 1. Generated-map reads through the full stack against the bare runtime (node:http + ioredis, one
 * GET of the same stored bytes), per coding, side by side under `wrk -t1 -c50` over the 64 seeds:
 * each measured twice in alternation and the better run kept, so a passing hiccup hurts neither.
 * Our API serves them from its memory after a first read (one small Redis round trip for the
 * block check per request).
 */
export async function benchCachedMaps(store: Store, env: Record<string, string>, redisPid: number) {
  const seeds = await benchCachedMapsData(store);

  const api = await startProcess('api/main.ts', env);
  const bare = await startProcess('bench/bare-server.ts', env);
  const script = { name: 'paths', args: seeds.map((seed) => `/api/maps/${seed}`) };
  const run = (target: { url: string; pid: number }, headers: Record<string, string>, duration: number) =>
    wrk({
      url: target.url,
      script,
      headers,
      connections: 50,
      seconds: duration,
      serverPid: target.pid,
      redisPid,
    });
  const results: Record<string, unknown> = {};
  try {
    for (const { coding, headers, goal } of CODINGS) {
      const runs: Record<'api' | 'bare', LoadResult[]> = { api: [], bare: [] };
      for (const target of [api, bare]) await run(target, headers, 2);
      for (let round_ = 0; round_ < 2; round_++) {
        runs.api.push(await run(api, headers, seconds));
        runs.bare.push(await run(bare, headers, seconds));
      }
      const best = (xs: LoadResult[]) => xs.reduce((a, b) => (b.rps > a.rps ? b : a));
      const ours = best(runs.api);
      const baseline = best(runs.bare);
      const ratio = round(ours.rps / baseline.rps, 2);
      results[coding] = { seedblock: ours, baseline, ratio, goal };
      console.log(`\n1. Generated-map reads, ${coding} (wrk -t1 -c50, 64 seeds)`);
      console.table({ seedblock: ours, 'bare node:http + ioredis GET': baseline });
      console.log(`ratio seedblock / bare: ${ratio} (goal ≥ ${goal})`);
    }
  } finally {
    await Promise.all([api.stop(), bare.stop()]);
  }
  return results;
}
