import { Router } from 'express';
import type { ApiDeps } from '../deps.ts';
import { openApiDocument } from '../openapi.ts';

/** GET /openapi.json: the OpenAPI 3.1 document of this API, generated from its zod schemas. */
export function openApiRoutes({ config }: ApiDeps): Router {
  const document = JSON.stringify(openApiDocument(config.API_PREFIX));
  const router = Router();
  router.get('/openapi.json', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').type('application/json').send(document);
  });
  return router;
}
