import type { ApiDeps } from '../deps.ts';
import type { DetectionBody } from '../schemas.ts';
import type { Handler } from './route.ts';

/**
 * POST /admin/v1/detections `{seed}`: a sighting from the seed detector (outside this service).
 * Dropped while the seed's window is open. 200 `{seed, recorded}`.
 */
export function recordDetection({ store, config }: ApiDeps): Handler<{ body: DetectionBody }> {
  return async (ctx) => {
    ctx.send(200, await store.recordDetection({ seed: ctx.body.seed, queueMax: config.QUEUE_MAX }));
  };
}
