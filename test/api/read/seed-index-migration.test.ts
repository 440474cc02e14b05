import { afterAll, describe, expect, inject, it } from 'vitest';
import { connectRedis, redisReady, STATS_CACHE_MS, type StoreRedis } from '../../../store/index.ts';
import { startTestApi, testPrefix, type TestApi } from '../../support/api.ts';
import { advanceClock, pollUntil } from '../../support/clock.ts';
import { startTestWorker } from '../../support/generator-worker.ts';
import { get } from '../../support/http.ts';
import { generate } from '../../support/read-api.ts';
import { openTestStore } from '../../support/test-store.ts';

// An upgrade from the layout before the seed index (a map:<seed> hash with both bodies per dumped
// seed, listed by dump order in seeds:by-dump; seeds:known for every seed ever seen): the API
// moves those seeds into the index at start, keeping their order and flags, drops what can be
// rebuilt, and new dumps come after them.

type Page = {
  items: { seed: number; roomCount: number; spawns: number; detected: boolean }[];
  total: number;
};

let api: TestApi | undefined;
afterAll(async () => {
  await api?.close();
});

// Three seeds dumped by the old code, the middle one also sighted; one seed only sighted.
const old = [
  { seed: 5_000_001, order: 1, roomCount: 101, spawns: 190 },
  { seed: 5_000_002, order: 2, roomCount: 102, spawns: 191 },
  { seed: 5_000_003, order: 3, roomCount: 103, spawns: 192 },
];

/** The old layout of `old` under `prefix`, written as the code before the seed index kept it. */
async function writeOldLayout(redis: StoreRedis, prefix: string): Promise<void> {
  for (const { seed, order, roomCount, spawns } of old) {
    await redis.hset(`${prefix}map:${seed}`, {
      etag: '"old"',
      br: 'x'.repeat(9_000),
      gz: 'y'.repeat(11_000),
      roomCount,
      spawns,
      markers: 0,
      order,
      dumpedAt: 1,
    });
    await redis.zadd(`${prefix}seeds:by-dump`, order, seed);
    await redis.sadd(`${prefix}seeds:known`, seed);
    await redis.hset(`${prefix}job:${seed}`, { status: 'ready', attempts: 1 });
  }
  await redis.set(`${prefix}seeds:dump-order`, 3);
  await redis.sadd(`${prefix}seeds:detected`, 5_000_002, 5_000_009);
  await redis.sadd(`${prefix}seeds:known`, 5_000_009);
}

describe('moving seeds of the old layout into the seed index', () => {
  it('counts the dumped seeds it moved, over several batches, and finds nothing left after', async () => {
    const prefix = testPrefix();
    const store = await openTestStore({ prefix, name: 'old-layout' });
    try {
      await writeOldLayout(store.ctx.redis, prefix);
      expect(await store.migrateSeedIndex(2)).toBe(old.length);
      expect(await store.ctx.redis.exists(`${prefix}seeds:by-dump`, `${prefix}seeds:known`)).toBe(0);
      expect(await store.migrateSeedIndex(2)).toBe(0);
    } finally {
      await store.close();
    }
  });

  it('keeps every seed, its order, counts and flags; drops the bodies; new dumps come after', async () => {
    const prefix = testPrefix();
    const redis = connectRedis({ url: inject('redisUrl'), name: 'old-layout' });
    await redisReady(redis);
    await writeOldLayout(redis, prefix);

    try {
      api = await startTestApi({ REDIS_PREFIX: prefix });
      const page = await pollUntil(
        () => get<Page>(`${api!.base}/seeds`),
        (r) => r.body.total === 3,
        { what: 'old seeds listed' },
      );
      expect(page.body.items).toEqual(
        [...old].reverse().map(({ seed, roomCount, spawns }) => ({
          seed,
          roomCount,
          spawns,
          markers: 0,
          dumped: true,
          detected: seed === 5_000_002,
        })),
      );
      await pollUntil(
        () => redis.exists(`${prefix}seeds:known`),
        (n) => n === 0,
        { what: 'known seeds moved' },
      );
      for (const { seed } of old) {
        expect(await redis.exists(`${prefix}map:${seed}`, `${prefix}job:${seed}`)).toBe(0);
      }
      expect(await redis.exists(`${prefix}seeds:by-dump`, `${prefix}seeds:dump-order`)).toBe(0);
      const overview = await get(`${api.base}/stats/overview`);
      expect(overview.body).toMatchObject({ seedsTracked: 4, seedsDumped: 3, seedsDetected: 2 });

      // An old seed's map is rebuilt from its seed; a new dump is listed first.
      expect((await get(`${api.base}/maps/5000001`)).status).toBe(200);
      const worker = await startTestWorker(prefix);
      try {
        await generate(api, 5_000_009);
      } finally {
        await worker.stop();
      }
      const after = await get<Page>(`${api.base}/seeds`);
      expect(after.body.items.map((i) => i.seed)).toEqual([5_000_009, 5_000_003, 5_000_002, 5_000_001]);
      expect(after.body.items[0]!.detected).toBe(true);
      await advanceClock(api, STATS_CACHE_MS);
      expect((await get(`${api.base}/stats/overview`)).body).toMatchObject({
        seedsTracked: 4,
        seedsDumped: 4,
      });
    } finally {
      redis.disconnect();
    }
  });
});
