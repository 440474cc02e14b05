import type { ApiDeps } from '../deps.ts';
import { HttpError } from '../http/http-error.ts';
import type { Handler } from './route.ts';

/**
 * GET /seeds (4.9): dumped seeds, newest first, paged by the last seed of the previous page.
 * Seeds with an open window are left out and come back when it closes.
 */
export function readSeedPage({
  store,
}: ApiDeps): Handler<{ query: { cursor: number | undefined; limit: number } }> {
  return async (ctx) => {
    const { cursor, limit } = ctx.query;
    const page = await store.readSeedPage({ limit, cursor: cursor ?? null });
    if (page.kind === 'invalid cursor') throw new HttpError(400, 'invalid cursor');
    const { kind: _kind, ...body } = page;
    ctx.send(200, body, { 'Cache-Control': 'no-store' });
  };
}
