import express, { Router } from 'express';
import type { ManualClock } from '../store/index.ts';
import type { ApiDeps } from './deps.ts';
import { docsPageRouter } from './docs-page.ts';
import { errorHandler, notFound } from './http/error-handler.ts';
import { identifyResponses } from './http/request-id-header.ts';
import { requireAdmin } from './http/require-admin.ts';
import { openApiDocument } from './openapi.ts';
import { detectionRoutes } from './routes/detections.ts';
import { jobRoutes } from './routes/jobs.ts';
import { mapReads, mapRoutes, type MapReads } from './routes/maps.ts';
import { openApiRoutes } from './routes/openapi.ts';
import { pluginClaimRoutes } from './routes/plugin-claim.ts';
import { previewRoutes } from './routes/preview.ts';
import { reportAnswers, reportRoutes, type ReportAnswers } from './routes/report.ts';
import { revokeRoutes } from './routes/revoke.ts';
import { seedPageAnswers, seedRoutes, type SeedPageAnswers } from './routes/seeds.ts';
import { selfClaimRoutes } from './routes/self-claim.ts';
import { statsRoutes } from './routes/stats.ts';
import { testClockRoutes } from './routes/test-clock.ts';
import { versionRoutes } from './routes/version.ts';
import { seedShareable } from './maps/shareable-seed.ts';
import { viewerDistDir, viewerRouter } from './viewer-files.ts';

/**
 * The express app, which the front door (front-door.ts) hands every request it does not answer
 * itself: (test clock) → map reads in their other spellings → the API routes (JSON body; each
 * route: limits, key, JSON body and its validation, store) → error handler (spec error bodies, 503
 * for Redis). The viewer is served at `/` and the API reference page at `/docs`, outside the API
 * prefix.
 */
export function createApp(
  deps: ApiDeps,
  {
    readMap = mapReads(deps),
    answerReport = reportAnswers(deps),
    answerSeedPage = seedPageAnswers(deps),
  }: { readMap?: MapReads; answerReport?: ReportAnswers; answerSeedPage?: SeedPageAnswers } = {},
): express.Express {
  const { config, store, logger } = deps;
  const app = express();
  app.set('trust proxy', deps.trustProxy);
  app.disable('x-powered-by');
  app.set('etag', false);
  identifyResponses(app);

  if (store.ctx.clock.kind === 'manual') app.use(testClockRoutes(store.ctx.clock as ManualClock));

  // Before the API router, which answers 404 for everything under an empty API_PREFIX.
  app.use(docsPageRouter(openApiDocument(config.API_PREFIX)));
  mapRoutes(app, config.API_PREFIX, readMap);
  const api = Router();
  // No body parser here: each route reads its body after its rate limits (http/json-body.ts).
  api.use(
    jobRoutes(deps),
    seedRoutes(answerSeedPage),
    reportRoutes(answerReport),
    selfClaimRoutes(deps),
    pluginClaimRoutes(deps),
    revokeRoutes(deps),
    versionRoutes(deps),
    statsRoutes(deps),
    detectionRoutes(deps),
    openApiRoutes(deps),
  );
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
      publicUrl: config.PUBLIC_URL,
    }),
  );
  app.use(notFound);
  app.use(errorHandler(logger, deps.metrics));
  return app;
}
