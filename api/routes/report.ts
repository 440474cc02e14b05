import { Router, type RequestHandler } from 'express';
import type { ApiDeps } from '../deps.ts';
import { admitReport } from '../http/admit-report.ts';
import { invalidCredential } from '../http/http-error.ts';
import { readJson } from '../http/json-body.ts';
import { requireMinimumPluginVersion } from '../http/plugin-version.ts';
import { parseOr400, ReportBodySchema, type ReportBody, type ReportResponse } from '../schemas.ts';

/**
 * POST /plugin/v1/report (4.5) and POST /v1/servers/report (4.2): one block engine behind both.
 * Order: the per-IP limit, the key, the per-key limit, the body (after every limit, so a malformed
 * one counts too), the plugin minimum, the decision.
 */
export function reportRoutes(deps: ApiDeps): Router {
  const { store } = deps;
  // The per-IP limit, the key and the per-key limit: one round trip (admit-report.lua).
  const admit = admitReport(deps);

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
      ...(decision.reason ? { reason: decision.reason } : {}),
    };
    res.json(answer);
  };

  const router = Router();
  router.post('/plugin/v1/report', admit, readJson, validate, requireMinimumPluginVersion(store), decide);
  router.post('/v1/servers/report', admit, readJson, validate, decide);
  return router;
}
