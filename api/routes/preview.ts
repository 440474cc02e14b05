import { Router } from 'express';
import type { Request, Response } from 'express';
import type { ApiDeps } from '../deps.ts';
import { matchesEtag } from '../http/if-none-match.ts';
import { applyLimit, byIp } from '../http/rate-limit.ts';
import { mapUnavailable, parseSeedParam } from '../http/read-answers.ts';
import { assertVisible, mapLookup } from '../maps/map-lookup.ts';
import { PreviewCache } from '../maps/preview-cache.ts';
import { renderPreviewOf } from '../maps/preview-image.ts';
import { previewEtag } from '../maps/preview-version.ts';

// GET /seed/{seed}/preview.png: the picture a seed page's link preview shows (og:image), beside
// the viewer's pages. It answers like the map read: 400 `invalid seed`, 403 `blocked` for a seed
// in a window or on the permanent blocklist (checked on every request, so a held picture never
// outlives its seed's visibility), 429 past the uncached-map limit, 503 when busy. Drawing a
// picture costs a core for some 30 ms, so only a GET that finds none held draws one, counted
// against the client's previewRendersPerIp (429 past it); a revalidation (If-None-Match) and a
// HEAD are answered from the ETag, which is known without drawing (preview-version.ts).

/** The picture's path relative to the viewer's mount point. */
export const previewPath = (seed: number): string => `/seed/${seed}/preview.png`;

/** Renders waiting at most; past it a request answers 503 rather than hold the event loop. */
const RENDERS_WAITING_MAX = 8;

export function previewRoutes(deps: ApiDeps): Router {
  const { store, config, mapMemory, hiddenSeeds, trustProxy } = deps;
  const cache = new PreviewCache(config.PREVIEW_CACHE_BYTES);
  const maps = mapLookup(deps);
  const clientKey = byIp(trustProxy);
  let waiting = 0;

  /** Throws the refusal unless the seed may be shown now; the one-HEXISTS check settles most seeds. */
  async function visible(seed: number): Promise<void> {
    if (await hiddenSeeds.mayBeHidden(seed)) await assertVisible(store, seed, false);
  }

  /** The map's JSON, the way the map read finds it; a seed still queued is made here. */
  async function mapJson(seed: number, req: Request): Promise<Buffer> {
    return mapMemory.json(seed, mapMemory.get(seed) ?? (await maps.findOrMake(seed, req)));
  }

  async function render(seed: number, req: Request): Promise<Buffer> {
    if (waiting >= RENDERS_WAITING_MAX) throw mapUnavailable();
    waiting++;
    try {
      return await renderPreviewOf(await mapJson(seed, req));
    } finally {
      waiting--;
    }
  }

  /** The held picture, else one drawn for this client: counted first, 429 past its budget. */
  async function picture(seed: number, req: Request): Promise<Buffer> {
    const held = cache.get(seed);
    if (held) return held;
    await applyLimit(store, 'previewRendersPerIp', clientKey(req), config.RATE_LIMIT_MULTIPLIER);
    return cache.getOrRender(seed, () => render(seed, req));
  }

  function answer(res: Response, status: 200 | 304, etag: string, png?: Buffer): void {
    // Shared caches revalidate every time: a window may open on the seed at any moment.
    res.setHeader('Cache-Control', 'public, no-cache');
    res.setHeader('ETag', etag);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    if (status === 200) res.type('png');
    if (png) res.setHeader('Content-Length', png.length);
    res.status(status).end(res.req.method === 'HEAD' ? undefined : png);
  }

  const router = Router();
  router.get('/seed/:seed/preview.png', async (req: Request, res: Response) => {
    const seed = parseSeedParam(req.params.seed);
    await visible(seed);
    const etag = previewEtag(seed);
    const ifNoneMatch = req.headers['if-none-match'];
    if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, etag)) return answer(res, 304, etag);
    // A HEAD draws nothing: its length is known only for a picture held.
    if (req.method === 'HEAD') return answer(res, 200, etag, cache.get(seed));
    const png = await picture(seed, req);
    // A window may have opened while the picture was made.
    await visible(seed);
    answer(res, 200, etag, png);
  });
  return router;
}
