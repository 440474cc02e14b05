import type { RequestHandler } from 'express';
import type { ApiDeps } from '../deps.ts';
import { bearerToken } from './authenticate.ts';
import { clientIp } from './client-ip.ts';
import { HttpError, invalidCredential } from './http-error.ts';
import { byIp } from './rate-limit.ts';

/**
 * A report's limits and key in one Redis round trip (store admitReport), in the spec's order: the
 * per-IP limit (429), the key (401), the per-key limit (429). Sets `req.serverKey` when admitted.
 * Replaces two express-rate-limit middlewares and the credential lookup: three round trips.
 */
export function admitReport({ store, config, trustProxy }: ApiDeps): RequestHandler {
  const ipKey = byIp(trustProxy);
  return async (req, _res, next) => {
    const admission = await store.admitReport({
      credential: bearerToken(req),
      ipKey: ipKey(req),
      clientIp: clientIp(req, trustProxy),
      multiplier: config.RATE_LIMIT_MULTIPLIER,
    });
    if (admission.kind === 'invalid') return next(invalidCredential());
    if (admission.kind === 'limited') {
      const seconds = Math.max(1, Math.ceil((admission.resetAt - (await store.ctx.clock.now())) / 1000));
      return next(new HttpError(429, 'rate limited', {}, { 'Retry-After': String(seconds) }));
    }
    req.serverKey = admission.key;
    next();
  };
}
