import type { Store } from '../store/index.ts';
import { round, seconds, startProcess } from './lib.ts';
import { wrk } from './wrk.ts';

const SEEDS = 1_000_000;
const PAGE = 200;

/** A cursor somewhere in the list: the seeds are 1, 3, 5, … in dump order. */
const randomCursor = () => (1 + Math.floor(Math.random() * (SEEDS - 1))) * 2 + 1;

/** A million dumped seeds, through the same script a generator worker runs (no map bodies). */
export async function fillSeedList(store: Store): Promise<void> {
  for (let from = 0; from < SEEDS; from += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, SEEDS - from) }, (_, i) =>
        store.finishJob({ seed: 2 * (from + i) + 1, roomCount: 100, spawns: 190, markers: 0 }, 0),
      ),
    );
  }
}

/** Redis's own time per call of the page script, from INFO commandstats over `pages` sequential pages. */
async function redisTimePerPage(store: Store, pages: number): Promise<number> {
  await store.ctx.redis.config('RESETSTAT');
  for (let i = 0; i < pages; i++) await store.readSeedPage({ limit: PAGE, cursor: randomCursor() });
  const stats = await store.ctx.redis.info('commandstats');
  return Number(/cmdstat_evalsha:.*usec_per_call=([\d.]+)/.exec(stats)?.[1] ?? NaN) / 1000;
}

/** 4. GET /seeds with a million dumped seeds: 200-item pages at random cursors, under wrk. */
export async function benchSeedList(store: Store, env: Record<string, string>, redisPid: number) {
  await fillSeedList(store);
  const redisMsPerPage = round(await redisTimePerPage(store, 2_000), 3);
  const api = await startProcess('api/main.ts', env);
  const script = { name: 'seed-pages', args: ['/api/seeds', String(SEEDS), String(PAGE)] };
  const run = (connections: number, duration: number) =>
    wrk({ url: api.url, script, connections, seconds: duration, serverPid: api.pid, redisPid });
  try {
    await run(16, 2);
    const one = await run(1, seconds);
    const sixteen = await run(16, seconds);
    console.log(
      `\n4. Seed list with ${SEEDS.toLocaleString('en')} dumped seeds: ${PAGE}-item pages at random cursors (wrk -t1)`,
    );
    // Goals: as fast as when issue 20 was written (0.088 ms of Redis, p99 2 ms and 10 ms).
    console.log(`Redis time per page: ${redisMsPerPage} ms (goal ≤ 0.088 ms)`);
    console.table({ '1 connection (goal p99 ≤ 2 ms)': one, '16 connections (goal p99 ≤ 10 ms)': sixteen });
    return { seeds: SEEDS, redisMsPerPage, oneConnection: one, sixteenConnections: sixteen };
  } finally {
    await api.stop();
  }
}
