import type { ApiDeps } from '../deps.ts';
import { blockedError, mapUnavailable } from '../http/read-answers.ts';
import type { Handler } from './route.ts';

/** GET /jobs/{seed} (4.8): blocking rules as for maps; a seed never requested is queued. */
export function readJob({ store, config }: ApiDeps): Handler<{ params: { seed: number } }> {
  return async (ctx) => {
    const { seed } = ctx.params;
    const read = await store.readJob(seed, config.QUEUE_MAX);
    if (read.kind === 'blocked' || read.kind === 'permanent') throw blockedError(read);
    if (read.kind === 'full') throw mapUnavailable();
    const { kind: _kind, ...job } = read;
    ctx.send(200, { seed, ...job }, { 'Cache-Control': 'no-store' });
  };
}
