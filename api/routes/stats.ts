import type { Request, RequestHandler } from 'express';
import { STATS_CACHE_MS } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';
import { applyLimit, byIp } from '../http/rate-limit.ts';
import type { Handler } from './route.ts';

/**
 * A statistics answer cached 60 s by the injected clock (4.10, 4.11): a cache hit is not counted
 * against the 20-per-minute limit, a miss is.
 */
function cached<T>(
  { store, config, trustProxy }: ApiDeps,
  load: () => Promise<T>,
  {
    present = (v) => v,
    revalidate = false,
  }: { present?: (value: T) => T | Promise<T>; revalidate?: boolean } = {},
): RequestHandler {
  const perIp = byIp(trustProxy);
  let entry: { value: T; until: number } | null = null;
  return async (req: Request, res) => {
    const now = await store.ctx.clock.now();
    if (!entry || now >= entry.until) {
      await applyLimit(store, 'statsPerIp', perIp(req), config.RATE_LIMIT_MULTIPLIER);
      entry = { value: await load(), until: now + STATS_CACHE_MS };
    }
    const { value, until } = entry;
    const body = await present(value);
    res
      .set('Cache-Control', revalidate ? 'no-cache' : `public, max-age=${Math.ceil((until - now) / 1000)}`)
      .json(body);
  };
}

/** GET /stats/overview (4.10). */
export function readOverview(deps: ApiDeps): Handler[] {
  const { store, startedAt } = deps;
  return [
    cached(deps, async () => ({
      ...(await store.readOverview()),
      uptimeSec: Math.max(0, Math.floor(((await store.ctx.clock.now()) - startedAt) / 1000)),
    })),
  ];
}

/** GET /stats/protection (4.11). */
export function readProtection(deps: ApiDeps): Handler[] {
  const { store } = deps;
  return [
    cached(
      deps,
      async () => {
        // Windows that ran out are settled first, so `recent` is current even between sweeps.
        await store.settleExpiredWindows();
        return store.readProtection();
      },
      {
        // The seed of a live window is never shown (4.11): not from an earlier window of the same
        // seed, nor from an answer cached before the window opened. Checked on every answer, and
        // no shared cache may keep one (no-cache), as for maps.
        present: async (stats) => {
          const open = await store.openWindowSeeds();
          return { ...stats, recent: stats.recent.filter((w) => !open.has(w.seed)) };
        },
        revalidate: true,
      },
    ),
  ];
}
