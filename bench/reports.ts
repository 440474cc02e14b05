import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { startLocalRedis } from '../scripts/redis-server.ts';
import type { Store } from '../store/index.ts';
import { percentile, round, seconds, startProcess } from './lib.ts';
import { wrk, type LoadResult } from './wrk.ts';

const PATH = '/api/plugin/v1/report';

/**
 * 2. Reports from 1,000 HTTP keys under `wrk -t1 -c50`, against the bare runtime running the same
 * block engine script with one EVALSHA (bench/bare-report-server.ts), alternated twice and the
 * better run of each kept; then the API again with a replica attached and REDIS_REPLICAS_ACK=1
 * (every answer with blockedUntil waits for its WAIT), against the same bare runs; then the block
 * engine's Lua step on its own.
 */
export async function benchReports(store: Store, env: Record<string, string>, redisPid: number, dir: string) {
  const keys: { credential: string; serverId: string }[] = [];
  for (let i = 0; i < 1000; i++) keys.push(await store.issueHttpKey());
  const keyFile = join(dir, 'report-keys');
  writeFileSync(keyFile, keys.map((k) => k.credential).join('\n'));
  const idFile = join(dir, 'report-key-ids');
  writeFileSync(idFile, keys.map((k) => `${k.credential} ${k.serverId}`).join('\n'));

  const api = await startProcess('api/main.ts', env);
  const bare = await startProcess('bench/bare-report-server.ts', { ...env, BENCH_KEYS_FILE: idFile });
  const script = { name: 'reports', args: [PATH, keyFile] };
  const run = (target: { url: string; pid: number }, duration: number) =>
    wrk({ url: target.url, script, connections: 50, seconds: duration, serverPid: target.pid, redisPid });
  const runs: Record<'api' | 'bare', LoadResult[]> = { api: [], bare: [] };
  try {
    for (const target of [api, bare]) await run(target, 2);
    for (let round_ = 0; round_ < 2; round_++) {
      runs.api.push(await run(api, seconds));
      runs.bare.push(await run(bare, seconds));
    }
  } finally {
    await Promise.all([api.stop(), bare.stop()]);
  }
  const best = (xs: LoadResult[]) => xs.reduce((a, b) => (b.rps > a.rps ? b : a));
  const http = best(runs.api);
  const baseline = best(runs.bare);
  const ratio = round(http.rps / baseline.rps, 2);
  const withReplica = await benchWithReplica(env, dir, (target) => run(target, seconds));
  const replicaRatio = round(withReplica.rps / baseline.rps, 2);

  // The Lua step alone: sequential calls (one round trip each), against a bare PING.
  const timeIt = async (fn: () => Promise<unknown>, count: number) => {
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const t = performance.now();
      await fn();
      times.push(performance.now() - t);
    }
    return times.sort((a, b) => a - b);
  };
  const registered = await store.listRegistrations();
  let i = 0;
  const lua = await timeIt(() => {
    const key = registered[i++ % registered.length]!;
    return store.reportSeed({
      serverId: key.serverId,
      kind: 'http',
      seed: 10_000 + (i % 3000),
      event: 'round_start',
    });
  }, 5000);
  const ping = await timeIt(() => store.ctx.redis.ping(), 5000);
  const luaStep = {
    medianMs: round(percentile(lua, 50)),
    p99Ms: round(percentile(lua, 99)),
    pingMedianMs: round(percentile(ping, 50)),
    scriptMedianMs: round(percentile(lua, 50) - percentile(ping, 50)),
  };
  console.log(`\n2. Reports from 1,000 keys (POST ${PATH}, wrk -t1 -c50)`);
  console.table({
    seedblock: http,
    'seedblock, a replica, REDIS_REPLICAS_ACK=1': withReplica,
    'bare node:http + ioredis EVALSHA': baseline,
  });
  console.log(
    `ratio seedblock / bare: ${ratio} (goal ≥ 0.8); with a replica acknowledging: ${replicaRatio} (goal ≥ 0.6)`,
  );
  console.log('block engine step (report-seed.lua), sequential, ms:');
  console.table({ 'report-seed.lua': luaStep });
  return { http, baseline, ratio, goal: 0.8, withReplica, replicaRatio, replicaGoal: 0.6, luaStep };
}

/** The API with a replica of the bench's Redis that must confirm each window (REDIS_REPLICAS_ACK=1). */
async function benchWithReplica(
  env: Record<string, string>,
  dir: string,
  run: (target: { url: string; pid: number }) => Promise<LoadResult>,
): Promise<LoadResult> {
  const replica = await startLocalRedis({
    dir: join(dir, 'replica'),
    durable: false,
    replicaOf: Number(new URL(env.REDIS_URL!).port),
  });
  const observer = new Redis(replica.url);
  try {
    while (!/master_link_status:up/.test(await observer.info('replication'))) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const api = await startProcess('api/main.ts', { ...env, REDIS_REPLICAS_ACK: '1' });
    try {
      await run(api); // warm-up
      return await run(api);
    } finally {
      await api.stop();
    }
  } finally {
    observer.disconnect();
    await replica.stop();
  }
}
