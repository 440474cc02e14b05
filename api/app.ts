import express, { Router } from 'express';
import type { ManualClock } from '../store/index.ts';
import type { ApiDeps } from './deps.ts';
import { docsPageRouter } from './docs-page.ts';
import { errorHandler, notFound } from './http/error-handler.ts';
import { undecodableSeed } from './http/read-answers.ts';
import { publicOrigin } from './http/public-origin.ts';
import { identifyResponses } from './http/request-id-header.ts';
import { requireAdmin } from './http/require-admin.ts';
import { openApi, type OpenApiDocument } from './openapi.ts';
import { compileRoute, type CompiledRoute } from './routes/pipeline.ts';
import { previewRoutes } from './routes/preview.ts';
import { testClockRoute } from './routes/test-clock.ts';
import { seedShareable } from './maps/shareable-seed.ts';
import { viewerDistDir, viewerRouter } from './viewer-files.ts';

/** The API of one process: every route compiled once, and the OpenAPI document they make. */
export interface CompiledApi {
  routes: readonly CompiledRoute[];
  document: OpenApiDocument;
}

/**
 * The routes this process answers (the table's and the document's own), each compiled once; the
 * front door and express share them. The probes are documented only: health.ts answers them.
 */
export function compileApi(deps: ApiDeps): CompiledApi {
  const { document, routes } = openApi(deps.config.API_PREFIX);
  return {
    document,
    routes: routes.filter((route) => route.handler).map((route) => compileRoute(deps, route)),
  };
}

/**
 * The routes under the API prefix as express routes, for the spellings the front door leaves to
 * express (percent-encoding, a trailing slash, another case): each labelled for the metrics and
 * the log, then its compiled pipeline.
 */
function apiRouter(routes: readonly CompiledRoute[]): Router {
  const router = Router();
  for (const compiled of routes) {
    if (compiled.route.outsidePrefix) continue;
    const { param, observed } = compiled;
    router[compiled.route.method](compiled.expressPath, (req, res) => {
      res.observedRoute = observed;
      void compiled.answer(req, res, param && (req.params[param] as string));
    });
  }
  // A seed that is not even valid percent-encoding fails in the router (read-answers.ts).
  router.use(undecodableSeed);
  return router;
}

/**
 * The express app, which the front door (front-door.ts) hands every request it does not answer
 * itself: (test clock) → /docs → the API routes (each its compiled pipeline: limits, key, JSON
 * body and its validation, parameters, handler) → error handler (spec error bodies, 503 for
 * Redis). The viewer is served at `/` and the API reference page at `/docs`, outside the API
 * prefix.
 */
export function createApp(deps: ApiDeps, api: CompiledApi = compileApi(deps)): express.Express {
  const { config, store, logger } = deps;
  const app = express();
  app.set('trust proxy', deps.trustProxy);
  app.disable('x-powered-by');
  app.set('etag', false);
  identifyResponses(app);

  if (store.ctx.clock.kind === 'manual') {
    const clock = compileRoute(deps, testClockRoute(store.ctx.clock as ManualClock));
    app.post(clock.expressPath, (req, res) => void clock.answer(req, res, undefined));
  }

  // Before the API router, which answers 404 for everything under an empty API_PREFIX.
  app.use(docsPageRouter(api.document));
  // No body parser here: each route reads its body after its limits and key (routes/pipeline.ts).
  const router = apiRouter(api.routes);
  router.use(notFound);
  app.use(config.API_PREFIX || '/', router);

  app.get('/metrics', requireAdmin(config.ADMIN_TOKEN), async (_req, res) => {
    const body = await deps.metrics.registry.metrics();
    res.type(deps.metrics.registry.contentType).send(body);
  });

  app.use(previewRoutes(deps));
  app.use(
    viewerRouter({
      apiPrefix: config.API_PREFIX,
      distDir: viewerDistDir(config.VIEWER_DIST_DIR),
      sourceMaps: config.VIEWER_SOURCE_MAPS,
      seedShareable: seedShareable(deps),
      publicOrigin: (req) => publicOrigin(req, config.PUBLIC_URL),
    }),
  );
  app.use(notFound);
  app.use(errorHandler(logger, deps.metrics));
  return app;
}
