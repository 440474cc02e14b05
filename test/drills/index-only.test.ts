import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SeedPageSchema } from '../../api/schemas.ts';
import { generateMap } from '../../generator/index.ts';
import { get, type WireAnswer } from '../support/http.ts';
import { askJobs, startMapService, statusCounts, waitIdle, type MapService } from '../support/map-flood.ts';
import { usedMemory } from '../support/redis-clients.ts';

// Drill (issue 12, point 1): with MAP_CACHE_MAX_BYTES=0 Redis keeps only the durable seed index.
// On a redis-server of its own, with a real API and generator process, SEEDS fresh seeds are
// generated through GET /jobs; INFO used_memory grows by at most 160 B per dumped seed, and the
// seed list (order, fields, cursors) and the overview counts answer exactly for those seeds.

/**
 * Sized to what it proves (issue 35): past 32 buckets of INDEX_BUCKET_LOAD (48) seeds, so the
 * index splits every bucket once (16 → 32) and starts on the next level, as it does at any scale.
 */
const SEEDS = 1_600;
const BYTES_PER_SEED = 160;
const FIRST = 410_000_003;
/** Fresh seeds spread over the range (not consecutive), the first one generated alone. */
const seeds = Array.from({ length: SEEDS + 1 }, (_, i) => FIRST + i * 7_919);

let service: MapService;

beforeAll(async () => {
  service = await startMapService({ env: { MAP_CACHE_MAX_BYTES: '0' } });
}, 60_000);
afterAll(async () => {
  await service?.stop();
});

type Page = { items: Record<string, unknown>[]; total: number; nextCursor: number | null };

describe('MAP_CACHE_MAX_BYTES=0: the durable seed index only', () => {
  it(`Redis grows by at most ${BYTES_PER_SEED} B per dumped seed; the seed list and counts stay exact`, async () => {
    const api = service.apis[0]!;
    // One seed first, so the scripts are loaded and the queue has run once before measuring.
    expect((await get(`${api.base}/jobs/${seeds[0]}`)).status).toBe(200);
    await waitIdle(service, 1, { timeoutMs: 30_000 });
    const before = await usedMemory(service.observer);

    // One connection, so the queue (and with one worker, the dump order) is the order sent.
    const fresh = seeds.slice(1);
    const asked = await askJobs(api, fresh, { connections: 1, statuses: ['queued', 'running', 'ready'] });
    expect(asked.failures).toEqual([]);
    expect(statusCounts(asked)).toEqual({ 200: SEEDS });
    await waitIdle(service, seeds.length, { timeoutMs: 180_000 });
    const grown = (await usedMemory(service.observer)) - before;
    console.log(
      `index only: ${SEEDS} seeds asked in ${Math.round(asked.ms)} ms; ` +
        `used_memory +${grown} B, ${(grown / SEEDS).toFixed(1)} B per seed`,
    );
    expect(grown / SEEDS).toBeLessThanOrEqual(BYTES_PER_SEED);
    // Nothing of a map is left in Redis: no job record, no cached body.
    expect(await service.observer.keys(service.key('job:*'))).toEqual([]);
    expect(await service.observer.keys(service.key('mapcache:*'))).toEqual([service.key('mapcache:state')]);
    expect(await service.observer.hget(service.key('mapcache:state'), 'bytes')).toBe('0');

    // Every seed reads `ready` through /jobs.
    const ready = await askJobs(api, seeds, { connections: 8, statuses: ['ready'] });
    expect(ready.failures).toEqual([]);

    // The overview counts every seed exactly once (a fresh process cache: never read before).
    const overview = await get(`${api.base}/stats/overview`);
    expect(overview.status).toBe(200);
    expect(overview.body).toMatchObject({
      seedsDumped: seeds.length,
      seedsTracked: seeds.length,
      seedsDetected: 0,
    });

    // The seed list: every seed, newest dump first, each cursor the last seed of its page.
    const listed: Record<string, unknown>[] = [];
    let cursor: number | null = null;
    do {
      const res: WireAnswer<Page> = await get<Page>(
        `${api.base}/seeds?limit=500${cursor === null ? '' : `&cursor=${cursor}`}`,
      );
      expect(res.status).toBe(200);
      SeedPageSchema.strict().parse(res.body);
      expect(res.body.total).toBe(seeds.length);
      listed.push(...res.body.items);
      if (res.body.nextCursor !== null) {
        expect(res.body.items).toHaveLength(500);
        expect(res.body.nextCursor).toBe(res.body.items.at(-1)!.seed);
      }
      cursor = res.body.nextCursor;
    } while (cursor !== null);
    expect(listed.map((i) => i.seed)).toEqual([...seeds].reverse());
    // The list fields are the map's own (spec 2.5), kept in the index without the map.
    const mismatched = listed.filter((item) => {
      const map = generateMap(item.seed as number);
      return (
        item.roomCount !== map.rooms.length ||
        item.spawns !== map.spawns.length ||
        item.markers !== 0 ||
        item.dumped !== true ||
        item.detected !== false
      );
    });
    expect(mismatched).toEqual([]);

    // A map read of any of them is rebuilt from the seed (nothing is cached): 200, never 202.
    const sample = seeds[1_234]!;
    const map = await get(`${api.base}/maps/${sample}`);
    expect(map.status).toBe(200);
    expect(map.body).toEqual(JSON.parse(JSON.stringify(generateMap(sample))));
  }, 300_000);
});
