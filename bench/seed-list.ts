import type { Store } from '../store/index.ts';
import { load, seconds, startProcess } from './lib.ts';

const SEEDS = 1_000_000;

// Writes list entries in Redis itself, 20,000 per call: what finish-job.lua stores per seed
// (metadata and dump order), without map bodies, which the list never reads.
const FILL = `
local prefix, from, to = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
for order = from, to do
  local seed = tostring(order * 2 + 1)
  redis.call('HSET', prefix .. 'map:' .. seed, 'roomCount', 100, 'spawns', 190, 'markers', 0, 'order', order)
  redis.call('ZADD', prefix .. 'seeds:by-dump', order, seed)
end
return to
`;

/** 4. GET /seeds with a million known seeds: a 200-item page at random cursors. */
export async function fillSeedList(store: Store): Promise<void> {
  for (let from = 1; from <= SEEDS; from += 20_000) {
    await store.ctx.redis.eval(FILL, 0, store.ctx.prefix, from, Math.min(SEEDS, from + 19_999));
  }
}

export async function benchSeedList(store: Store, env: Record<string, string>) {
  await fillSeedList(store);
  const api = await startProcess('api/main.ts', env);
  try {
    const result = await load({
      url: api.url,
      duration: seconds,
      requests: [
        {
          setupRequest: (req) => {
            const cursor = (1 + Math.floor(Math.random() * (SEEDS - 1))) * 2 + 1;
            return { ...req, path: `/api/seeds?limit=200&cursor=${cursor}` };
          },
        },
      ],
    });
    console.log(
      `\n4. Seed list with ${SEEDS.toLocaleString('en')} known seeds: 200-item pages at random cursors`,
    );
    console.table({ 'GET /seeds': result });
    return { seeds: SEEDS, ...result };
  } finally {
    await api.stop();
  }
}
