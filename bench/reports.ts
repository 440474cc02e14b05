import { load, percentile, round, seconds, startProcess } from './lib.ts';
import type { Store } from '../store/index.ts';

/** 2. Reports from 1,000 registered keys, and the block engine's Lua step on its own. */
export async function benchReports(store: Store, env: Record<string, string>) {
  const keys: string[] = [];
  for (let i = 0; i < 1000; i++) keys.push((await store.issueHttpKey()).credential);

  const api = await startProcess('api/main.ts', env);
  let n = 0;
  const result = await (async () => {
    try {
      return await load({
        url: api.url,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            path: '/api/plugin/v1/report',
            setupRequest: (req) => {
              n++;
              const events = ['round_start', 'periodic', 'periodic', 'round_end'];
              return {
                ...req,
                headers: {
                  ...req.headers,
                  'content-type': 'application/json',
                  authorization: `Bearer ${keys[n % keys.length]}`,
                },
                body: JSON.stringify({ event: events[n % 4], seed: 1 + (n % 5000), port: 7777 }),
              };
            },
          },
        ],
      });
    } finally {
      await api.stop();
    }
  })();

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
  console.log('\n2. Reports from 1,000 keys (POST /api/plugin/v1/report)');
  console.table({ reports: result });
  console.log('block engine step (report-seed.lua), sequential, ms:');
  console.table({ 'report-seed.lua': luaStep });
  return { http: result, luaStep };
}
