import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../support/api.ts';
import { setClock, pollUntil } from '../support/clock.ts';
import { startWorkerProcess, type WorkerProcess } from '../support/generator-worker.ts';
import { get } from '../support/http.ts';
import { generate, openWindow } from '../support/read-api.ts';
import { usedMemory } from '../support/redis-clients.ts';
import { startPrivateRedis, type PrivateRedis } from '../support/private-redis.ts';

// Redis near its maxmemory (past 90 %, not yet refusing writes): derived data takes no more room.
// No new seed is queued (503 busy, as for a full queue) and no map joins the map cache, while
// reports, windows and dumped maps carry on; room to spare again, and generation resumes.

const T0 = '2026-03-01T08:00:00.000Z';
let redis: PrivateRedis;
let admin: Redis;
let api: TestApi;
let worker: WorkerProcess;
beforeAll(async () => {
  redis = await startPrivateRedis({ name: 'headroom' });
  admin = new Redis(redis.url, { protocol: 2 });
  api = await startTestApi({ REDIS_URL: redis.url, MAP_MEMORY_CACHE_BYTES: '0' });
  worker = startWorkerProcess(api.config.REDIS_PREFIX, { REDIS_URL: redis.url, MAP_CACHE_MAX_BYTES: '0' });
  await setClock(api, T0);
});
afterAll(async () => {
  await worker?.stop();
  await api?.close();
  admin?.disconnect();
  await redis?.stop();
});

describe('Redis near its maxmemory', () => {
  it('queues no new seed and caches no map, while reports and dumped maps carry on', async () => {
    const dumped = 8_100_001;
    await generate(api, dumped);
    const cacheBefore = await api.store.readMapCacheState();

    // Used memory at 95 % of maxmemory: writes still succeed, but the headroom (90 %) is reached.
    // A 20 MiB filler puts about 1 MiB between used memory and either line. It is written in
    // 256 KiB keys, and measured once the connections' buffers are back to small (a large write
    // leaves a query buffer that Redis frees only later, in its cron): used memory that falls by
    // that much after maxmemory is set would leave the headroom behind.
    for (let i = 0; i < 80; i++) await admin.set(`filler:${i}`, Buffer.alloc(256 * 2 ** 10));
    await pollUntil(
      () => admin.info('memory'),
      (info) => Number(/^mem_clients_normal:(\d+)/m.exec(info)![1]) < 2 ** 20,
      { what: 'client buffers under 1 MiB', timeoutMs: 30_000 },
    );
    await admin.config('SET', 'maxmemory', String(Math.floor((await usedMemory(admin)) / 0.95)));

    for (const path of ['jobs/8100002', 'maps/8100003']) {
      const res = await get(`${api.base}/${path}`);
      expect(res.status, path).toBe(503);
      expect(res.body).toEqual({ status: 'busy', error: 'map unavailable' });
    }
    // The dumped seed is rebuilt and sent, but not kept in the map cache.
    expect((await get(`${api.base}/maps/${dumped}`)).status).toBe(200);
    expect(await api.store.readMapCacheState()).toEqual(cacheBefore);
    // What server owners depend on still works: a report opens its window.
    const window = await openWindow(api, dumped);
    expect((await get(`${api.base}/maps/${dumped}`)).body).toEqual({
      error: 'blocked',
      blockedUntil: window.blockedUntil,
    });

    // Room again: the seed that was turned away is queued and generated.
    await admin.config('SET', 'maxmemory', '0');
    await generate(api, 8_100_002);
    expect((await get(`${api.base}/jobs/8100002`)).body).toEqual({ seed: 8_100_002, status: 'ready' });
  });
});
