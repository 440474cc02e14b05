import { Router } from 'express';
import type { ApiDeps } from '../deps.ts';
import { blockedError, mapUnavailable, parseSeedParam, undecodableSeed } from '../http/read-answers.ts';

/** GET /jobs/{seed} (4.8): blocking rules as for maps; a seed never requested is queued. */
export function jobRoutes({ store, config }: ApiDeps): Router {
  const router = Router();
  router.get('/jobs/:seed', async (req, res) => {
    const seed = parseSeedParam(req.params.seed);
    const read = await store.readJob(seed, config.QUEUE_MAX);
    if (read.kind === 'blocked' || read.kind === 'permanent') throw blockedError(read);
    if (read.kind === 'full') throw mapUnavailable();
    const { kind: _kind, ...job } = read;
    res.set('Cache-Control', 'no-store').json({ seed, ...job });
  });
  router.use(undecodableSeed);
  return router;
}
