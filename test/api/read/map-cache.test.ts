import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMapJson } from '../../../generator/map-bytes.ts';
import { GENERATOR_VERSION } from '../../../generator/version.ts';
import { type MapBodies, type Store } from '../../../store/index.ts';
import { testPrefix } from '../../support/api.ts';
import { seededRun } from '../../support/prng.ts';
import { openTestStore } from '../../support/test-store.ts';

// The map cache in Redis (store/scripts/includes/map-cache.lua) against the real test Redis:
// the cap holds after every step and at every moment between them, and the least recently read
// map goes first, whether it was read from the cache itself or from an API process's memory.

let store: Store;
let observer: Store;
beforeAll(async () => {
  const prefix = testPrefix();
  store = await openTestStore({ prefix, clock: 'system', name: 'map-cache' });
  observer = await openTestStore({ prefix, clock: 'system', name: 'map-cache-observer' });
});
afterAll(async () => {
  await store.close();
  await observer.close();
});

/** Bodies of the given sizes (their bytes do not matter to the cache), of this generator's version. */
const bodies = (br: number, gz: number, tag: string): MapBodies => ({
  etag: `"${GENERATOR_VERSION}.${tag}"`,
  br: Buffer.alloc(br, 1),
  gz: Buffer.alloc(gz, 2),
});

/** Every cached entry's charge and the cache's own count, read in one atomic step. */
const SNAPSHOT = `
local total = 0
for _, seed in ipairs(redis.call('ZRANGE', KEYS[1] .. 'mapcache:lru', 0, -1)) do
  total = total + tonumber(redis.call('HGET', KEYS[1] .. 'mapcache:' .. seed, 'charge') or 'NaN')
end
return { tostring(total), redis.call('HGET', KEYS[1] .. 'mapcache:state', 'bytes') or '0' }
`;
async function snapshot(on: Store): Promise<{ charged: number; bytes: number }> {
  const [charged, bytes] = (await on.ctx.redis.eval(SNAPSHOT, 1, on.ctx.prefix)) as [string, string];
  return { charged: Number(charged), bytes: Number(bytes) };
}

async function clear(on: Store) {
  await on.trimMapCache(0);
  expect(await on.readMapCacheState()).toEqual({ bytes: 0, seeds: [] });
}

describe('the map cache in Redis', () => {
  it('never holds more than its cap, even between two steps of concurrent writers', async () => {
    await clear(store);
    const { random, why } = seededRun();
    const cap = 200_000;
    const sizes = () => [1 + Math.floor(random() * 40_000), 1 + Math.floor(random() * 40_000)] as const;
    let observing = true;
    const seen: number[] = [];
    const watch = (async () => {
      while (observing) {
        const s = await snapshot(observer);
        expect(s.charged, why('the count matches the entries')).toBe(s.bytes);
        seen.push(s.bytes);
      }
    })();
    // Three writers at once, each caching maps of random sizes (some larger than the cap).
    await Promise.all(
      [0, 1, 2].map(async (writer) => {
        for (let i = 0; i < 60; i++) {
          const [br, gz] = sizes();
          const seed = 1 + writer * 1000 + Math.floor(random() * 80);
          await store.cacheMap(seed, bodies(br * (i % 17 === 0 ? 10 : 1), gz, `${seed}`), cap);
        }
      }),
    );
    observing = false;
    await watch;
    expect(seen.length).toBeGreaterThan(10);
    expect(Math.max(...seen), why('observed bytes')).toBeLessThanOrEqual(cap);
    const end = await snapshot(store);
    expect(end.bytes).toBeLessThanOrEqual(cap);
    expect(end.bytes, why('something is kept')).toBeGreaterThan(0);
  });

  it('charges each map at least its bodies, and keeps nothing larger than the cap', async () => {
    await clear(store);
    expect(await store.cacheMap(1, bodies(10_000, 12_000, 'a'), 1_000_000)).toBe(true);
    const { bytes } = await store.readMapCacheState();
    expect(bytes).toBeGreaterThanOrEqual(22_000);
    // A map charged more than the cap is not kept, and evicts nothing.
    expect(await store.cacheMap(2, bodies(10_000, 12_000, 'b'), bytes - 1)).toBe(false);
    expect((await store.readMapCacheState()).seeds).toEqual([1]);
    // A cap of 0 keeps nothing at all.
    expect(await store.cacheMap(3, bodies(1, 1, 'c'), 0)).toBe(false);
    await store.trimMapCache(0);
    expect(await store.readMapCacheState()).toEqual({ bytes: 0, seeds: [] });
  });

  it('evicts the least recently read first, reads from the cache and from API memory alike', async () => {
    await clear(store);
    const { random, pick, why } = seededRun();
    // Equal maps, so the cap holds exactly `room` of them.
    await store.cacheMap(999_999, bodies(5_000, 6_000, 'probe'), 10 ** 9);
    const each = (await store.readMapCacheState()).bytes;
    await clear(store);
    const room = 4;
    const cap = each * room + each - 1;
    /** The model: cached seeds, least recently read first. */
    let model: number[] = [];
    const used = (seed: number) => {
      model = [...model.filter((s) => s !== seed), seed];
    };
    for (let step = 0; step < 120; step++) {
      const action = model.length === 0 ? 'cache' : pick(['cache', 'cache', 'read', 'touch'] as const);
      if (action === 'cache') {
        const seed = 1 + Math.floor(random() * 9);
        await store.cacheMap(seed, bodies(5_000, 6_000, `${seed}`), cap);
        used(seed);
        if (model.length > room) model = model.slice(model.length - room);
      } else if (action === 'read') {
        // Read through the same script as GET /maps (no bytes held by the caller).
        const seed = pick(model);
        const answer = await readDumped(seed);
        expect(answer.kind, why(`read ${seed}`)).toBe('cached');
        used(seed);
      } else {
        // An API process's batch of reads from its own memory, least recent first.
        const seeds = [pick(model), pick(model)];
        await store.touchCachedMaps(seeds);
        for (const seed of seeds) used(seed);
      }
      expect((await store.readMapCacheState()).seeds, why(`after step ${step} (${action})`)).toEqual(model);
    }
  });

  it('forgets touches of maps it no longer holds, and trims to a lowered cap least recent first', async () => {
    await clear(store);
    for (const seed of [11, 12, 13]) await store.cacheMap(seed, bodies(5_000, 6_000, `${seed}`), 10 ** 9);
    expect(await store.touchCachedMaps([11, 77])).toBe(1);
    expect((await store.readMapCacheState()).seeds).toEqual([12, 13, 11]);
    const { bytes } = await store.readMapCacheState();
    expect(await store.trimMapCache(Math.ceil((bytes * 2) / 3))).toBe(1);
    expect((await store.readMapCacheState()).seeds).toEqual([13, 11]);
  });
});

/** A map read as GET /maps does it for bytes it does not hold, of a seed the index holds. */
async function readDumped(seed: number) {
  const read = () =>
    store.readMap({
      seed,
      clientKey: 'x',
      queueMax: 10,
      uncachedLimit: 20,
      generatorVersion: GENERATOR_VERSION,
    });
  if ((await read()).kind === 'pending') {
    const { summary } = buildMapJson(seed);
    await store.finishJob({ seed, ...summary }, 0);
  }
  return read();
}
