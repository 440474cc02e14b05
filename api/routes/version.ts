import { isDbUnavailable, VERSION_CACHE_SECONDS, type VersionInfo } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';
import type { Handler } from './route.ts';

/**
 * GET /plugin/v1/version (2.9, 4.6). Never 500: when Redis cannot be read, it answers with what
 * this process last knew (nulls before the first read).
 */
export function readVersion({ store, logger }: ApiDeps): Handler {
  let lastKnown: VersionInfo = { latest: null, minimum: null, downloadUrl: null };
  return async (ctx) => {
    try {
      lastKnown = await store.getVersionInfo();
    } catch (err) {
      // Redis away is logged once by its connection, not once per request.
      if (!isDbUnavailable(err))
        logger.warn({ err }, 'version info unavailable; answering with the last known');
    }
    ctx.send(200, lastKnown, { 'Cache-Control': `public, max-age=${VERSION_CACHE_SECONDS}` });
  };
}
