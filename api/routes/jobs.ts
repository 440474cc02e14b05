import type { ApiDeps } from '../deps.ts';
import { blockedError, mapUnavailable, parseSeedParam } from '../http/read-answers.ts';
import type { Handler } from './route.ts';

/** GET /jobs/{seed} (4.8): blocking rules as for maps; a seed never requested is queued. */
export function readJob({ store, config }: ApiDeps): Handler[] {
  return [
    async (req, res) => {
      const seed = parseSeedParam(req.params.seed);
      const read = await store.readJob(seed, config.QUEUE_MAX);
      if (read.kind === 'blocked' || read.kind === 'permanent') throw blockedError(read);
      if (read.kind === 'full') throw mapUnavailable();
      const { kind: _kind, ...job } = read;
      res.set('Cache-Control', 'no-store').json({ seed, ...job });
    },
  ];
}
