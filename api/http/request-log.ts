import type { RequestHandler } from 'express';
import { randomUUID } from 'node:crypto';
import { normalizeClaimCode } from '../../store/claim-codes.ts';
import { CREDENTIAL_PREFIX } from '../../store/credentials.ts';
import type { Logger } from '../../store/logger.ts';

declare module 'express-serve-static-core' {
  interface Request {
    id?: string;
  }
}

// A caller's id is kept when it is a plain token, so one id can follow a request through a CDN.
const SAFE_ID = /^[A-Za-z0-9._:-]{1,64}$/;
// ...but never one that could be a secret: a server key or a claim code sent in the header (a
// client echoing the wrong value) would otherwise be logged and echoed back.
const maybeSecret = (id: string) =>
  id.toLowerCase().includes(CREDENTIAL_PREFIX) || normalizeClaimCode(id) !== null;

/**
 * One structured log line per request, with a request id (echoed as `X-Request-Id`). Only the
 * method, path, status and timing are logged: never headers or bodies, so no credential or
 * claim code reaches a log.
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.get('x-request-id');
    req.id = given && SAFE_ID.test(given) && !maybeSecret(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', req.id);
    const started = process.hrtime.bigint();
    // Read now: routers strip their mount path from `req.path` while a request is inside them,
    // so by `finish` it would lack the API prefix for every request a route answered.
    const path = req.path;
    res.once('finish', () => {
      logger.info(
        {
          reqId: req.id,
          method: req.method,
          path,
          status: res.statusCode,
          ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        },
        'request',
      );
    });
    next();
  };
}
