import { Router } from 'express';
import type { Request, Response } from 'express';
import { GENERATOR_VERSION } from '../../generator/version.ts';
import { RATE_LIMITS } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';
import { byIp, rateLimited } from '../http/rate-limit.ts';
import { blockedError, mapUnavailable, parseSeedParam } from '../http/read-answers.ts';
import { PreviewCache } from '../maps/preview-cache.ts';
import { renderPreviewOf } from '../maps/preview-image.ts';
import { mapRebuilds, RebuildsBusyError } from '../maps/rebuilds.ts';

// GET /seed/{seed}/preview.png: the picture a seed page's link preview shows (og:image), beside
// the viewer's pages. It answers like the map read: 400 `invalid seed`, 403 `blocked` for a seed
// in a window or on the permanent blocklist (checked on every request, so a held picture never
// outlives its seed's visibility), 429 past the uncached-map limit, 503 when busy.

/** The picture's path relative to the viewer's mount point. */
export const previewPath = (seed: number): string => `/seed/${seed}/preview.png`;

/** Renders waiting at most; past it a request answers 503 rather than hold the event loop. */
const RENDERS_WAITING_MAX = 8;

export function previewRoutes({ store, config, trustProxy, mapMemory, hiddenSeeds }: ApiDeps): Router {
  const cache = new PreviewCache(config.PREVIEW_CACHE_BYTES, GENERATOR_VERSION);
  const rebuild = mapRebuilds();
  const clientKey = byIp(trustProxy);
  let waiting = 0;

  /** Throws the refusal unless the seed may be shown now; the one-HGET check settles most seeds. */
  async function visible(seed: number): Promise<void> {
    if (!(await hiddenSeeds.mayBeHidden(seed))) return;
    const block = await store.checkSeedBlock(seed, { countView: false });
    if (block.kind === 'window') throw blockedError({ kind: 'blocked', until: block.until });
    if (block.kind === 'permanent') throw blockedError(block);
  }

  /** The map's JSON, the way the map read finds it: held, cached, or rebuilt from the seed. */
  async function mapJson(seed: number, req: Request): Promise<Buffer> {
    const held = mapMemory.get(seed);
    if (held) return mapMemory.json(seed, held);
    const read = await store.readMap({
      seed,
      clientKey: clientKey(req),
      queueMax: config.QUEUE_MAX,
      uncachedLimit: RATE_LIMITS.uncachedMapsPerIp.limit * config.RATE_LIMIT_MULTIPLIER,
      generatorVersion: GENERATOR_VERSION,
    });
    switch (read.kind) {
      case 'cached':
        return mapMemory.json(seed, mapMemory.keep(seed, read.bodies));
      // Not generated yet, or in no cache: a map is a pure function of its seed.
      case 'pending':
      case 'rebuild':
        return mapMemory.json(
          seed,
          await rebuild(seed).catch((err: unknown) => {
            throw err instanceof RebuildsBusyError ? mapUnavailable() : err;
          }),
        );
      case 'limited':
        throw await rateLimited(store, read.resetAt);
      case 'blocked':
      case 'permanent':
        throw blockedError(read);
      case 'full':
      case 'error':
        throw mapUnavailable();
    }
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
    if (req.headers['if-none-match']?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag)) {
      res.status(304).end();
      return;
    }
    res.type('png').setHeader('Content-Length', png.length);
    res.status(200).end(req.method === 'HEAD' ? undefined : png);
  });
  return router;
}
