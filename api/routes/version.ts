import { Router } from 'express';
import { isDbUnavailable, VERSION_CACHE_SECONDS, type VersionInfo } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';

/**
 * GET /plugin/v1/version (2.9, 4.6). Never 500: when Redis cannot be read, it answers with what
 * this process last knew (nulls before the first read).
 */
export function versionRoutes({ store, logger }: ApiDeps): Router {
  let lastKnown: VersionInfo = { latest: null, minimum: null, downloadUrl: null };
  const router = Router();
  router.get('/plugin/v1/version', async (_req, res) => {
    try {
      lastKnown = await store.getVersionInfo();
    } catch (err) {
      // Redis away is logged once by its connection, not once per request.
      if (!isDbUnavailable(err))
        logger.warn({ err }, 'version info unavailable; answering with the last known');
    }
    res.set('Cache-Control', `public, max-age=${VERSION_CACHE_SECONDS}`).json(lastKnown);
  });
  return router;
}
