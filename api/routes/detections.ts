import type { ApiDeps } from '../deps.ts';
import { readJson } from '../http/json-body.ts';
import { requireAdmin } from '../http/require-admin.ts';
import { DetectionBodySchema, parseOr400 } from '../schemas.ts';
import type { Handler } from './route.ts';

/**
 * POST /admin/v1/detections `{seed}`: a sighting from the seed detector (outside this service).
 * Dropped while the seed's window is open. 200 `{seed, recorded}`.
 */
export function recordDetection({ store, config }: ApiDeps): Handler[] {
  return [
    requireAdmin(config.ADMIN_TOKEN),
    readJson,
    async (req, res) => {
      const { seed } = parseOr400(DetectionBodySchema, req.body);
      res.json(await store.recordDetection({ seed, queueMax: config.QUEUE_MAX }));
    },
  ];
}
