import type { RequestHandler } from 'express';
import type { ApiDeps } from '../deps.ts';
import { httpsLocation } from './https-redirect.ts';
import { requestObserver } from './request-observer.ts';

/**
 * What every request passes first, in one handler because every map read runs it: the request
 * id, log line and metrics; the https redirect; then the count of API requests (spec 2.8).
 */
export function edge({ logger, metrics, requests, config }: ApiDeps): RequestHandler {
  const observe = requestObserver(logger, metrics);
  const prefix = config.API_PREFIX;
  const isApiPath = (path: string) => !prefix || path === prefix || path.startsWith(`${prefix}/`);
  return (req, res, next) => {
    observe(req, res);
    const https = httpsLocation(req);
    if (https) return res.redirect(301, https);
    if (isApiPath(req.path)) requests.count();
    next();
  };
}
