import { Router } from 'express';
import { SEEDS_PAGE_DEFAULT } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';
import { HttpError } from '../http/http-error.ts';
import { parseOr400, SeedParamSchema, SeedsQuerySchema } from '../schemas.ts';

/**
 * GET /seeds (4.9): dumped seeds, newest first, paged by the last seed of the previous page.
 * Seeds with an open window are left out and come back when it closes.
 */
export function seedRoutes({ store }: ApiDeps): Router {
  const router = Router();
  router.get('/seeds', async (req, res) => {
    const query = parseOr400(SeedsQuerySchema, req.query);
    const cursor =
      query.cursor === undefined ? null : parseOr400(SeedParamSchema, query.cursor, 'invalid cursor');
    const page = await store.readSeedPage({ limit: query.limit ?? SEEDS_PAGE_DEFAULT, cursor });
    if (page.kind === 'invalid cursor') throw new HttpError(400, 'invalid cursor');
    const { kind: _kind, ...body } = page;
    res.set('Cache-Control', 'no-store').json(body);
  });
  return router;
}
