import { Router, type RequestHandler } from 'express';
import type { ApiDeps } from '../deps.ts';
import { authenticateKey } from '../http/authenticate.ts';
import { invalidCredential } from '../http/http-error.ts';
import { readJson } from '../http/json-body.ts';
import { requireMinimumPluginVersion } from '../http/plugin-version.ts';
import { byIp, limiter } from '../http/rate-limit.ts';
import { parseOr400, ReportBodySchema, type ReportBody, type ReportResponse } from '../schemas.ts';

/**
 * POST /plugin/v1/report (4.5) and POST /v1/servers/report (4.2): one block engine behind both.
 * Order: the per-IP limit, the key, the per-key limit, the body (after every limit, so a malformed
 * one counts too), the plugin minimum, the decision.
 */
export function reportRoutes({ store, config, trustProxy }: ApiDeps): Router {
  const multiplier = config.RATE_LIMIT_MULTIPLIER;
  const perIp = limiter({ store, name: 'reportPerIp', key: byIp(trustProxy), multiplier });
  const perKey = limiter({
    store,
    name: 'reportPerKey',
    key: (req) => req.serverKey?.serverId ?? '',
    multiplier,
  });

  const validate: RequestHandler = (req, _res, next) => {
    req.body = parseOr400(ReportBodySchema, req.body);
    next();
  };

  const decide: RequestHandler = async (req, res) => {
    const key = req.serverKey!;
    const body = req.body as ReportBody;
    const decision = await store.reportSeed({
      serverId: key.serverId,
      kind: key.kind,
      seed: body.seed,
      event: body.event,
    });
    if (decision.outcome === 'revoked') throw invalidCredential();
    const answer: ReportResponse = {
      ok: true,
      blockedUntil: decision.blockedUntil === null ? null : new Date(decision.blockedUntil).toISOString(),
      ...(decision.exhausted ? { exhausted: true as const } : {}),
    };
    res.json(answer);
  };

  const auth = authenticateKey(store, { trust: trustProxy });
  const router = Router();
  router.post(
    '/plugin/v1/report',
    perIp,
    auth,
    perKey,
    readJson,
    validate,
    requireMinimumPluginVersion(store),
    decide,
  );
  router.post('/v1/servers/report', perIp, auth, perKey, readJson, validate, decide);
  return router;
}
