import type { RequestHandler } from 'express';
import { randomUUID } from 'node:crypto';
import type { Logger } from '../logger.ts';

declare module 'express-serve-static-core' {
  interface Request {
    id?: string;
  }
}

// A caller's id is kept when it is a plain token, so one id can follow a request through a CDN.
const SAFE_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * One structured log line per request, with a request id (echoed as `X-Request-Id`). Only the
 * method, path, status and timing are logged: never headers or bodies, so no credential or
 * claim code reaches a log.
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const given = req.get('x-request-id');
    req.id = given && SAFE_ID.test(given) ? given : randomUUID();
    res.setHeader('X-Request-Id', req.id);
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      logger.info(
        {
          reqId: req.id,
          method: req.method,
          path: req.path,
          status: res.statusCode,
          ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        },
        'request',
      );
    });
    next();
  };
}
