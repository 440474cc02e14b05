import type { Request, Response, Router } from 'express';
import type { OutgoingHttpHeaders } from 'node:http';
import { brotliDecompressSync } from 'node:zlib';
import { RATE_LIMITS, type MapRead } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';
import { mapCoding, type MapCoding } from '../http/content-coding.ts';
import { HttpError } from '../http/http-error.ts';
import { byIp } from '../http/rate-limit.ts';
import { blockedError, mapUnavailable, parseSeedParam, undecodableSeed } from '../http/read-answers.ts';

/** If-None-Match (RFC 9110 13.1.2): a list of entity tags, compared weakly, or `*`. */
function matchesEtag(ifNoneMatch: string, etag: string): boolean {
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

/**
 * GET /maps/{seed} (4.7): the block check, the stored map, the job and the uncached-seed limit
 * are one Redis round trip. Map bytes are stored compressed and sent as stored (br or gzip by
 * Accept-Encoding) with a strong ETag; `no-cache` makes every shared cache revalidate here, so
 * none serves a seed after its window opens.
 *
 * Registered on the app itself, under the API prefix, rather than in a router of its own: map
 * reads are most of the traffic, and a nested router costs each of them a few µs.
 */
export function mapRoutes({ store, config }: ApiDeps, app: Router): void {
  const uncachedLimit = RATE_LIMITS.uncachedMapsPerIp.limit * config.RATE_LIMIT_MULTIPLIER;

  function sendMap(req: Request, res: Response, map: Extract<MapRead, { kind: 'ready' }>, coding: MapCoding) {
    // A strong ETag names these exact bytes: each content coding gets its own (RFC 9110 8.8.3.3),
    // so a cache holding the gzip bytes never has them confirmed by a revalidation of the br ones.
    const etag = coding ? `${map.etag.slice(0, -1)}-${coding}"` : map.etag;
    const headers: OutgoingHttpHeaders = {
      'Cache-Control': 'public, no-cache',
      ETag: etag,
      Vary: 'Accept-Encoding',
      'Content-Type': 'application/json; charset=utf-8',
    };
    const ifNoneMatch = req.headers['if-none-match'];
    if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, etag)) {
      res.writeHead(304, headers).end();
      return;
    }
    if (coding) headers['Content-Encoding'] = coding;
    const body = coding ? map.body : brotliDecompressSync(map.body);
    // Straight to node: the headers are complete and the bytes final, so express's send has
    // nothing to add on the busiest path.
    headers['Content-Length'] = body.length;
    res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : body);
  }

  const path = `${config.API_PREFIX}/maps`;
  app.get(`${path}/:seed`, async (req, res) => {
    const seed = parseSeedParam(req.params.seed);
    const coding = mapCoding(req);
    const read = await store.readMap({
      seed,
      encoding: coding === 'gzip' ? 'gz' : 'br',
      clientKey: byIp(req),
      queueMax: config.QUEUE_MAX,
      uncachedLimit,
    });
    switch (read.kind) {
      case 'ready':
        return sendMap(req, res, read, coding);
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
  app.use(path, undecodableSeed);
}
