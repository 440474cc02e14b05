import { Router, type Request, type Response } from 'express';
import { brotliDecompressSync } from 'node:zlib';
import { RATE_LIMITS, type MapRead } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';
import { HttpError } from '../http/http-error.ts';
import { byIp } from '../http/rate-limit.ts';
import { blockedError, mapUnavailable, parseSeedParam, undecodableSeed } from '../http/read-answers.ts';

/**
 * GET /maps/{seed} (4.7): the block check, the stored map, the job and the uncached-seed limit
 * are one Redis round trip. Map bytes are stored compressed and sent as stored (br or gzip by
 * Accept-Encoding) with a strong ETag; `no-cache` makes every shared cache revalidate here, so
 * none serves a seed after its window opens.
 */
export function mapRoutes({ store, config }: ApiDeps): Router {
  const uncachedLimit = RATE_LIMITS.uncachedMapsPerIp.limit * config.RATE_LIMIT_MULTIPLIER;

  function sendMap(req: Request, res: Response, map: Extract<MapRead, { kind: 'ready' }>, identity: boolean) {
    const coding = identity ? null : map.encoding === 'br' ? 'br' : 'gzip';
    // A strong ETag names these exact bytes: each content coding gets its own (RFC 9110 8.8.3.3),
    // so a cache holding the gzip bytes never has them confirmed by a revalidation of the br ones.
    const etag = coding ? `${map.etag.slice(0, -1)}-${coding}"` : map.etag;
    res.set({
      'Cache-Control': 'public, no-cache',
      ETag: etag,
      Vary: 'Accept-Encoding',
      'Content-Type': 'application/json; charset=utf-8',
    });
    const etags = req
      .get('if-none-match')
      ?.split(',')
      .map((t) => t.trim().replace(/^W\//, ''));
    if (etags?.includes(etag) || etags?.includes('*')) {
      res.status(304).end();
      return;
    }
    if (coding === null) {
      res.send(brotliDecompressSync(map.body));
      return;
    }
    res.set('Content-Encoding', coding).send(map.body);
  }

  const router = Router();
  router.get('/maps/:seed', async (req, res) => {
    const seed = parseSeedParam(req.params.seed);
    const accepted = req.acceptsEncodings('br', 'gzip');
    const read = await store.readMap({
      seed,
      encoding: accepted === 'gzip' ? 'gz' : 'br',
      clientKey: byIp(req),
      queueMax: config.QUEUE_MAX,
      uncachedLimit,
    });
    switch (read.kind) {
      case 'ready':
        return sendMap(req, res, read, accepted !== 'br' && accepted !== 'gzip');
      case 'pending':
        res.status(202).set('Cache-Control', 'no-store').json({ status: 'pending', job: 'queued' });
        return;
      case 'blocked':
      case 'permanent':
        throw blockedError(read);
      case 'limited': {
        const seconds = Math.max(1, Math.ceil((read.resetAt - (await store.ctx.clock.now())) / 1000));
        throw new HttpError(429, 'rate limited', {}, { 'Retry-After': String(seconds) });
      }
      case 'full':
      case 'error':
        throw mapUnavailable();
    }
  });
  router.use(undecodableSeed);
  return router;
}
