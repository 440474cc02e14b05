import type { ApiDeps } from '../deps.ts';
import { openApiDocument } from '../openapi.ts';
import type { Handler } from './route.ts';

/** GET /openapi.json: the OpenAPI 3.1 document of this API, generated from its route table. */
export function serveOpenApi({ config }: ApiDeps): Handler[] {
  const document = JSON.stringify(openApiDocument(config.API_PREFIX));
  return [
    (_req, res) => {
      res.set('Cache-Control', 'public, max-age=300').type('application/json').send(document);
    },
  ];
}
