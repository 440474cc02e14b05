import express, { Router } from 'express';
import { RATE_LIMITS, type ManualClock } from '../store/index.ts';
import type { ApiDeps } from './deps.ts';
import { docsPageRouter } from './docs-page.ts';
import { errorHandler, notFound } from './http/error-handler.ts';
import { undecodableSeed } from './http/read-answers.ts';
import { publicOrigin } from './http/public-origin.ts';
import { limitPerIp } from './http/rate-limit.ts';
import { identifyResponses } from './http/request-id-header.ts';
import { requireAdmin } from './http/require-admin.ts';
import { openApiDocument } from './openapi.ts';
import { mapReads } from './routes/maps.ts';
import { reportAnswers } from './routes/report.ts';
import { previewRoutes } from './routes/preview.ts';
import type { Handler, HotAnswers, Route } from './routes/route.ts';
import { seedPageAnswers } from './routes/seeds.ts';
import { expressPath, routeLabel, ROUTES } from './routes/table.ts';
import { testClockRoutes } from './routes/test-clock.ts';
import { seedShareable } from './maps/shareable-seed.ts';
import { viewerDistDir, viewerRouter } from './viewer-files.ts';

/** The answers the front door gives without express, made once per process and shared with it. */
export const hotAnswers = (deps: ApiDeps): HotAnswers => ({
  readMap: mapReads(deps),
  answerReport: reportAnswers(deps),
  answerSeedPage: seedPageAnswers(deps),
});

/**
 * The table's limits that count every request of a route (spec 8: revoke, plugin claim), each
 * counted before anything else is read. The others count one step (a probe, a stats cache miss)
 * or are judged inside a route's one script (reports, map reads): its handlers apply those.
 */
function everyRequestLimits({ store, config, trustProxy }: ApiDeps, route: Route): Handler[] {
  return (route.limits ?? [])
    .filter((name) => RATE_LIMITS[name].counts === 'requests')
    .map((name) => limitPerIp({ store, trustProxy, multiplier: config.RATE_LIMIT_MULTIPLIER }, name));
}

/**
 * The routes of the table (routes/table.ts) under the API prefix, as express routes: each labelled
 * for the metrics from the table, then its every-request limits and its handlers (a hot route's:
 * the front door's answer, for the spellings only express matches).
 */
function apiRouter(deps: ApiDeps, hot: HotAnswers): Router {
  const router = Router();
  for (const route of ROUTES) {
    if (route.outsidePrefix) continue;
    const label = routeLabel(deps.config.API_PREFIX, route);
    const param = /\{([a-z]+)\}/i.exec(route.path)?.[1];
    const answer = route.hot?.(hot);
    const handlers: Handler[] = answer
      ? [(req, res, next) => answer(req, res, param && (req.params[param] as string)).catch(next)]
      : [...everyRequestLimits(deps, route), ...route.handlers!(deps)];
    router[route.method](
      expressPath(route.path),
      (_req, res, next) => {
        res.observedRoute = label;
        next();
      },
      ...handlers,
    );
  }
  // A seed that is not even valid percent-encoding fails in the router (read-answers.ts).
  router.use(undecodableSeed);
  return router;
}

/**
 * The express app, which the front door (front-door.ts) hands every request it does not answer
 * itself: (test clock) → the API routes of the table (each: limits, key, JSON body and its
 * validation, store) → error handler (spec error bodies, 503 for Redis). The viewer is served at
 * `/` and the API reference page at `/docs`, outside the API prefix.
 */
export function createApp(deps: ApiDeps, hot: HotAnswers = hotAnswers(deps)): express.Express {
  const { config, store, logger } = deps;
  const app = express();
  app.set('trust proxy', deps.trustProxy);
  app.disable('x-powered-by');
  app.set('etag', false);
  identifyResponses(app);

  if (store.ctx.clock.kind === 'manual') app.use(testClockRoutes(store.ctx.clock as ManualClock));

  // Before the API router, which answers 404 for everything under an empty API_PREFIX.
  app.use(docsPageRouter(openApiDocument(config.API_PREFIX)));
  // No body parser here: each route reads its body after its rate limits (http/json-body.ts).
  const api = apiRouter(deps, hot);
  api.use(notFound);
  app.use(config.API_PREFIX || '/', api);

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
