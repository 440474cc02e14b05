import { SEED_COOLDOWN_MS, STATS_CACHE_MS } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';
import type { Handler } from './route.ts';

type StatsHandler = Handler<{ steps: 'statsPerIp' }>;

/**
 * A statistics answer cached 60 s by the injected clock (4.10, 4.11): a cache hit is not counted
 * against the 20-per-minute limit, a miss is. The answer is `public, max-age` for what is left of
 * those 60 s (the spec caches both 60 s), shorter when `shareableFor` says so.
 */
function cached<T>(
  { store }: ApiDeps,
  load: () => Promise<T>,
  {
    present = (v) => v,
    shareableFor = () => Infinity,
  }: {
    present?: (value: T) => T | Promise<T>;
    /** How long (ms from `now`) a shared cache may keep this answer, at most. */
    shareableFor?: (body: T, now: number) => number;
  } = {},
): StatsHandler {
  let entry: { value: T; until: number } | null = null;
  return async (ctx) => {
    const now = await store.ctx.clock.now();
    if (!entry || now >= entry.until) {
      await ctx.limit('statsPerIp');
      entry = { value: await load(), until: now + STATS_CACHE_MS };
    }
    const { value, until } = entry;
    const body = await present(value);
    const maxAge = Math.min(
      Math.ceil((until - now) / 1000),
      Math.max(0, Math.floor(shareableFor(body, now) / 1000)),
    );
    ctx.send(200, body, { 'Cache-Control': `public, max-age=${maxAge}` });
  };
}

/** GET /stats/overview (4.10). */
export function readOverview(deps: ApiDeps): StatsHandler {
  const { store, startedAt } = deps;
  return cached(deps, async () => ({
    ...(await store.readOverview()),
    uptimeSec: Math.max(0, Math.floor(((await store.ctx.clock.now()) - startedAt) / 1000)),
  }));
}

/** GET /stats/protection (4.11). */
export function readProtection(deps: ApiDeps): StatsHandler {
  const { store } = deps;
  return cached(
    deps,
    async () => {
      // Windows that ran out are settled first, so `recent` is current even between sweeps.
      await store.settleExpiredWindows();
      return store.readProtection();
    },
    {
      // The seed of a live window is never shown (4.11): not from an earlier window of the same
      // seed, nor from an answer cached before the window opened. Checked on every answer here;
      // a shared cache keeps an answer only while every seed it lists is in its cooldown (5 min
      // from its window's end), when no new window of it can open.
      present: async (stats) => {
        const open = await store.openWindowSeeds();
        return { ...stats, recent: stats.recent.filter((w) => !open.has(w.seed)) };
      },
      shareableFor: (stats, now) =>
        Math.min(...stats.recent.map((w) => Date.parse(w.endedAt) + SEED_COOLDOWN_MS - now)),
    },
  );
}
