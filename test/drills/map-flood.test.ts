import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateMap } from '../../generator/index.ts';
import { get, type WireAnswer } from '../support/http.ts';
import { openWindow } from '../support/read-api.ts';
import { askJobs, startMapService, statusCounts, waitIdle, type MapService } from '../support/map-flood.ts';
import { usedMemory } from '../support/redis-clients.ts';
import type { ApiProcess } from '../support/api-process.ts';

// Drill (issue 12, point 4): one anonymous client floods GET /jobs with fresh seeds over 8
// connections against a redis-server of its own at `maxmemory 5mb` (noeviction, the default),
// with an API process and a generator process running MAP_CACHE_MAX_BYTES=1 MiB. Proves:
// - no answer is a 5xx (nor missing), and every seed ends up `ready`;
// - the map cache's charged bytes never exceed the cap (sampled all through the flood, and
//   summed over the entries at the end), and Redis grows by no more than the cap plus 160 B per
//   seed (the durable index) plus SLACK;
// - afterwards an HTTP key's report opens a window, and that seed reads 403 on maps and jobs;
// - maps read before the flood, evicted from the map cache by it, still answer 200 with their
//   first ETag and the same bytes in every coding, from the process that held them and from one
//   that rebuilds them.

/**
 * Sized to what it proves (issue 35): the maps of this many seeds (11 KB each) fill the cap four
 * times over, and a cache that ignored its cap would pass 90 % of MAXMEMORY (where new seeds are
 * refused with 503 `busy`) a little past half-way through the flood. About 15 s on a quiet 2-core
 * machine, nearly all of it the worker generating.
 */
const FLOOD_SEEDS = 400;
/**
 * Room for what Redis holds before the flood (2.2 MB: the early maps, scripts, its own tables),
 * the cap, the index and the queue (peak about 3.5 MB), not for the flood's maps besides.
 */
const MAXMEMORY = '5mb';
const CONNECTIONS = 8;
const CAP = 2 ** 20;
const INDEX_BYTES_PER_SEED = 160;
/**
 * What else may grow during the flood, whatever the number of seeds (INFO memory before and after
 * one run): scripts run for the first time mid-flood (+2 scripts, +6 KiB), the service's client
 * buffers (±25 KiB: a worker's finishing command alone carries a map's 12 KiB of bodies), and
 * the keyspace's own tables (+12 KiB).
 */
const SLACK = 64 * 1024;
const CODINGS = { br: 'br', gzip: 'gzip', identity: undefined } as const;
type Coding = keyof typeof CODINGS;

/** Seeds read before the flood. */
const EARLY = [510_000_011, 510_000_013, 510_000_017, 510_000_019];
/** The flood's fresh seeds. */
const FLOODED = Array.from({ length: FLOOD_SEEDS }, (_, i) => 520_000_001 + i * 104_729);

let service: MapService;
/** Serves the early reads and the flood, so it holds the early maps in its own memory. */
let api: ApiProcess;
/** Serves nothing before the flood: every map it sends after it comes from Redis or a rebuild. */
let other: ApiProcess;

beforeAll(async () => {
  service = await startMapService({
    env: { MAP_CACHE_MAX_BYTES: String(CAP) },
    apis: 2,
    config: { maxmemory: MAXMEMORY },
  });
  [api, other] = service.apis as [ApiProcess, ApiProcess];
}, 60_000);
afterAll(async () => {
  await service?.stop();
});

const readMap = (base: string, seed: number, coding: Coding, headers: Record<string, string> = {}) =>
  get(`${base}/maps/${seed}`, {
    headers: { ...(CODINGS[coding] ? { 'accept-encoding': CODINGS[coding] } : {}), ...headers },
  });

/**
 * The map cache's entries `seeds`: their charges summed, and what Redis says they use (MEMORY
 * USAGE of each entry's key and of the LRU order that lists them).
 */
async function cacheEntries(seeds: number[]) {
  const pipeline = service.observer.pipeline();
  pipeline.memory('USAGE', service.key('mapcache:lru'), 'SAMPLES', '0');
  for (const seed of seeds) {
    pipeline.hget(service.key(`mapcache:${seed}`), 'charge');
    pipeline.memory('USAGE', service.key(`mapcache:${seed}`), 'SAMPLES', '0');
  }
  const replies = (await pipeline.exec())!.map(([err, value]) => {
    if (err) throw err;
    return Number(value);
  });
  let charged = 0;
  let used = replies[0]!;
  for (let i = 1; i < replies.length; i += 2) {
    charged += replies[i]!;
    used += replies[i + 1]!;
  }
  return { charged, used };
}

describe(`one client floods GET /jobs with ${FLOOD_SEEDS} fresh seeds over ${CONNECTIONS} connections`, () => {
  it('no 5xx, every seed ready, the cache under its cap, Redis within cache + index; windows and early maps hold', async () => {
    // Maps read before the flood, in every coding: their first ETag and bytes.
    for (const seed of EARLY) expect((await get(`${api.base}/jobs/${seed}`)).status).toBe(200);
    await waitIdle(service, EARLY.length, { timeoutMs: 60_000 });
    const first = new Map<string, WireAnswer>();
    for (const seed of EARLY) {
      for (const coding of Object.keys(CODINGS) as Coding[]) {
        const res = await readMap(api.base, seed, coding);
        expect(res.status, `${seed} ${coding}`).toBe(200);
        first.set(`${seed} ${coding}`, res);
      }
    }

    const before = await usedMemory(service.observer);
    // The cache's charged bytes, read every few milliseconds while the flood and the worker run
    // (each script's writes are seen whole or not at all), and the peak of Redis's memory.
    let sampling = true;
    const samples: number[] = [];
    let peakUsed = before;
    const sampler = (async () => {
      while (sampling) {
        const [bytes, used] = await Promise.all([
          service.observer.hget(service.key('mapcache:state'), 'bytes'),
          usedMemory(service.observer),
        ]);
        samples.push(Number(bytes ?? 0));
        peakUsed = Math.max(peakUsed, used);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();

    let floodMs: number;
    let settleMs: number;
    try {
      const started = performance.now();
      const asked = await askJobs(api, FLOODED, {
        connections: CONNECTIONS,
        statuses: ['queued', 'running', 'ready'],
      });
      floodMs = asked.ms;
      expect(asked.failures, 'answers that failed').toEqual([]);
      expect(statusCounts(asked)).toEqual({ 200: FLOOD_SEEDS });
      await waitIdle(service, EARLY.length + FLOOD_SEEDS, { timeoutMs: 240_000 });
      settleMs = performance.now() - started;
    } finally {
      sampling = false;
      await sampler;
    }
    const after = await usedMemory(service.observer);

    // Every seed ready, as /jobs says it (and no 5xx here either).
    const ready = await askJobs(api, [...EARLY, ...FLOODED], {
      connections: CONNECTIONS,
      statuses: ['ready'],
    });
    expect(ready.failures, 'seeds not ready').toEqual([]);

    // The cap: never exceeded while sampled, and the entries left charge no more than it; Redis
    // grew by no more than the cap and the index.
    const cache = await service.store.readMapCacheState();
    const { charged, used } = await cacheEntries(cache.seeds);
    const grown = after - before;
    const bound = CAP + INDEX_BYTES_PER_SEED * FLOOD_SEEDS + SLACK;
    console.log(
      `map flood: ${FLOOD_SEEDS} seeds asked in ${Math.round(floodMs)} ms, all generated after ` +
        `${Math.round(settleMs)} ms; cache ${cache.seeds.length} maps, ${charged} B charged ` +
        `(${used} B MEMORY USAGE with the LRU order), max sampled ${Math.max(...samples)} B of ${CAP} over ` +
        `${samples.length} samples; used_memory +${grown} B (bound ${bound} B), peak ${peakUsed} B`,
    );
    expect(samples.length, 'samples taken during the flood').toBeGreaterThan(20);
    expect(Math.max(...samples)).toBeLessThanOrEqual(CAP);
    // The flood did fill the cache (else the cap above proves nothing).
    expect(Math.max(...samples)).toBeGreaterThan(CAP - 64 * 1024);
    expect(grown, 'Redis growth within the cache and the index').toBeLessThanOrEqual(bound);
    expect(charged).toBe(cache.bytes);
    expect(charged).toBeLessThanOrEqual(CAP);
    // What is charged covers each entry's real memory: its bodies, keys and place in the LRU order.
    expect(used).toBeLessThanOrEqual(charged);
    // No body outside the LRU order: every cached map is one the cap counts.
    const bodies = (await service.observer.keys(service.key('mapcache:*'))).filter(
      (k) => !/mapcache:(lru|state)$/.test(k),
    );
    expect(bodies.length).toBe(cache.seeds.length);

    // The early maps were evicted by the flood: what follows reads them back through a rebuild.
    const cached = new Set(cache.seeds);
    expect(EARLY.filter((seed) => cached.has(seed))).toEqual([]);
    for (const seed of EARLY) {
      for (const base of [api.base, other.base]) {
        for (const coding of Object.keys(CODINGS) as Coding[]) {
          const was = first.get(`${seed} ${coding}`)!;
          const res = await readMap(base, seed, coding);
          expect(res.status, `${seed} ${coding} from ${base}`).toBe(200);
          expect(res.headers.get('etag')).toBe(was.headers.get('etag'));
          expect(res.raw.equals(was.raw), `${seed} ${coding} bytes from ${base}`).toBe(true);
          const revalidated = await readMap(base, seed, coding, {
            'if-none-match': was.headers.get('etag')!,
          });
          expect(revalidated.status).toBe(304);
        }
      }
    }
    // An evicted flood seed is rebuilt too: the map of its seed.
    const evicted = FLOODED.find((seed) => !cached.has(seed))!;
    const rebuilt = await readMap(other.base, evicted, 'br');
    expect(rebuilt.status).toBe(200);
    expect(rebuilt.body).toEqual(JSON.parse(JSON.stringify(generateMap(evicted))));

    // The blocking API: an HTTP key's report opens a window on a flooded seed and on an early one
    // (held in `api`'s memory); both read 403 on maps and jobs from either process.
    for (const seed of [evicted, EARLY[0]!]) {
      const { blockedUntil } = await openWindow({ base: api.base, store: service.store }, seed);
      const refused = { error: 'blocked', blockedUntil };
      for (const base of [api.base, other.base]) {
        for (const coding of Object.keys(CODINGS) as Coding[]) {
          const map = await readMap(base, seed, coding);
          expect(map.status, `map of ${seed} ${coding}`).toBe(403);
          expect(map.body).toEqual(refused);
        }
        const job = await get(`${base}/jobs/${seed}`);
        expect(job.status, `job of ${seed}`).toBe(403);
        expect(job.body).toEqual(refused);
      }
    }
  }, 400_000);
});
