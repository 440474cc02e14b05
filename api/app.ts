import express, { Router } from 'express';
import type { ManualClock } from '../store/index.ts';
import type { ApiDeps } from './deps.ts';
import { errorHandler, notFound } from './http/error-handler.ts';
import { httpsRedirect } from './http/https-redirect.ts';
import { jsonBody } from './http/json-body.ts';
import { detectionRoutes } from './routes/detections.ts';
import { jobRoutes } from './routes/jobs.ts';
import { mapRoutes } from './routes/maps.ts';
import { pluginClaimRoutes } from './routes/plugin-claim.ts';
import { reportRoutes } from './routes/report.ts';
import { revokeRoutes } from './routes/revoke.ts';
import { seedRoutes } from './routes/seeds.ts';
import { selfClaimRoutes } from './routes/self-claim.ts';
import { statsRoutes } from './routes/stats.ts';
import { testClockRoutes } from './routes/test-clock.ts';
import { versionRoutes } from './routes/version.ts';

/**
 * The HTTP application. A request flows: https redirect → (test clock) → API prefix → JSON body
 * → route (limits, key, validation, store) → error handler (spec error bodies, 503 for Redis).
 */
export function createApp(deps: ApiDeps): express.Express {
  const { config, store, logger } = deps;
  const app = express();
  app.set('trust proxy', config.TRUST_PROXY);
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(httpsRedirect);

  if (store.ctx.clock.kind === 'manual') {
    app.use(jsonBody, testClockRoutes(store.ctx.clock as ManualClock));
  }

  const api = Router();
  api.use(deps.requests.middleware, jsonBody);
  api.use(
    selfClaimRoutes(deps),
    pluginClaimRoutes(deps),
    reportRoutes(deps),
    revokeRoutes(deps),
    versionRoutes(deps),
    mapRoutes(deps),
    jobRoutes(deps),
    seedRoutes(deps),
    statsRoutes(deps),
    detectionRoutes(deps),
  );
  api.use(notFound);
  app.use(config.API_PREFIX || '/', api);

  app.use(notFound);
  app.use(errorHandler(logger));
  return app;
}
