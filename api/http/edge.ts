import type { RequestHandler } from 'express';
import type { ApiDeps } from '../deps.ts';
import { underApiPrefix } from './api-path.ts';
import { httpsLocation } from './https-redirect.ts';
import { requestObserver } from './request-observer.ts';

/**
 * What every request passes first, in one handler because every map read runs it: the request
 * id, log line and metrics; the https redirect; then the count of API requests (spec 2.8).
 */
export function edge({ logger, metrics, requests, config }: ApiDeps): RequestHandler {
  const observe = requestObserver(logger, metrics);
  return (req, res, next) => {
    // Read now: routers strip their mount path from `req.path` while a request is inside them.
    const path = req.path;
    observe(req, res, path);
    const https = httpsLocation(req);
    if (https) return res.redirect(301, https);
    if (underApiPrefix(config.API_PREFIX, path)) requests.count();
    next();
  };
}
