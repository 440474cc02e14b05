import { Router } from 'express';
import type { Request, Response } from 'express';
import { GENERATOR_VERSION } from '../../generator/version.ts';
import type { ApiDeps } from '../deps.ts';
import { matchesEtag } from '../http/if-none-match.ts';
import { mapUnavailable, parseSeedParam } from '../http/read-answers.ts';
import { assertVisible, mapLookup } from '../maps/map-lookup.ts';
import { PreviewCache } from '../maps/preview-cache.ts';
import { renderPreviewOf } from '../maps/preview-image.ts';

// GET /seed/{seed}/preview.png: the picture a seed page's link preview shows (og:image), beside
// the viewer's pages. It answers like the map read: 400 `invalid seed`, 403 `blocked` for a seed
// in a window or on the permanent blocklist (checked on every request, so a held picture never
// outlives its seed's visibility), 429 past the uncached-map limit, 503 when busy.

/** The picture's path relative to the viewer's mount point. */
export const previewPath = (seed: number): string => `/seed/${seed}/preview.png`;

/** Renders waiting at most; past it a request answers 503 rather than hold the event loop. */
const RENDERS_WAITING_MAX = 8;

export function previewRoutes(deps: ApiDeps): Router {
  const { store, config, mapMemory, hiddenSeeds } = deps;
  const cache = new PreviewCache(config.PREVIEW_CACHE_BYTES, GENERATOR_VERSION);
  const maps = mapLookup(deps);
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

  const router = Router();
  router.get('/seed/:seed/preview.png', async (req: Request, res: Response) => {
    const seed = parseSeedParam(req.params.seed);
    await visible(seed);
    const { png, etag } = await cache.getOrRender(seed, () => render(seed, req));
    // A window may have opened while the picture was made.
    await visible(seed);
    // Shared caches revalidate every time: a window may open on the seed at any moment.
    res.setHeader('Cache-Control', 'public, no-cache');
    res.setHeader('ETag', etag);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    const ifNoneMatch = req.headers['if-none-match'];
    if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, etag)) {
      res.status(304).end();
      return;
    }
    res.type('png').setHeader('Content-Length', png.length);
    res.status(200).end(req.method === 'HEAD' ? undefined : png);
  });
  return router;
}
