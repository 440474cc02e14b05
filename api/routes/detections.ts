import { Router, type RequestHandler } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { ApiDeps } from '../deps.ts';
import { bearerToken } from '../http/authenticate.ts';
import { HttpError } from '../http/http-error.ts';
import { requireJson } from '../http/json-body.ts';
import { DetectionBodySchema, parseOr400 } from '../schemas.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time; no token set, no access. */
export function requireAdmin(adminToken: string | undefined): RequestHandler {
  const expected = adminToken ? digest(adminToken) : null;
  return (req, _res, next) => {
    const token = bearerToken(req);
    if (!expected || !token || !timingSafeEqual(digest(token), expected)) {
      return next(new HttpError(401, 'invalid token'));
    }
    next();
  };
}

/**
 * POST /admin/v1/detections `{seed}`: a sighting from the seed detector (outside this service).
 * Dropped while the seed's window is open. 200 `{seed, recorded}`.
 */
export function detectionRoutes({ store, config }: ApiDeps): Router {
  const router = Router();
  router.post('/admin/v1/detections', requireAdmin(config.ADMIN_TOKEN), requireJson, async (req, res) => {
    const { seed } = parseOr400(DetectionBodySchema, req.body);
    res.json(await store.recordDetection({ seed, queueMax: config.QUEUE_MAX }));
  });
  return router;
}
