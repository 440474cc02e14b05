import { Router } from 'express';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReportRefusal } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';
import { bearerToken } from '../http/authenticate.ts';
import { clientIp } from '../http/client-ip.ts';
import { HttpError, invalidCredential } from '../http/http-error.ts';
import { sendJson } from '../http/json-answer.ts';
import { readJsonBody } from '../http/json-body.ts';
import { ipLimitKey, rateLimited } from '../http/rate-limit.ts';
import { parseOr400, ReportBodySchema, type ReportResponse } from '../schemas.ts';

/** The two report routes (one block engine behind both): whether a route checks the plugin minimum. */
const REPORT_ROUTES = { '/plugin/v1/report': true, '/v1/servers/report': false } as const;
export type ReportRoute = keyof typeof REPORT_ROUTES;

export type ReportAnswers = (req: IncomingMessage, res: ServerResponse, route: ReportRoute) => Promise<void>;

/**
 * POST /plugin/v1/report (4.5) and POST /v1/servers/report (4.2), written on node's response.
 * The checks run in the spec's order: the per-IP limit (429), the key (401), the per-key limit
 * (429), the body (400, 413), the plugin minimum (426, the plugin's route only), then the
 * decision. A body that is a report takes all of them in one Redis round trip
 * (store admitAndDecideReport); any other body is counted by the same limits (admitReport) before
 * it is refused, so a malformed report counts too (spec 8 rule 2). The body is read first: a
 * report's checks need its seed, and a body is at most 16 KiB either way.
 */
export function reportAnswers({ store, config, trustProxy }: ApiDeps): ReportAnswers {
  /** A report stopped before its body counted: 429 past a limit, 401 for the key. */
  const refusalError = async (refusal: ReportRefusal): Promise<HttpError> =>
    refusal.kind === 'limited' ? rateLimited(store, refusal.resetAt) : invalidCredential();

  return async (req, res, route) => {
    const ip = clientIp(req, trustProxy);
    const sender = {
      credential: bearerToken(req),
      ipKey: ipLimitKey(ip),
      clientIp: ip,
      multiplier: config.RATE_LIMIT_MULTIPLIER,
    };
    let body;
    try {
      body = parseOr400(ReportBodySchema, await readJsonBody(req, res));
    } catch (bodyFailure) {
      const admission = await store.admitReport(sender);
      if (admission.kind !== 'admitted') throw await refusalError(admission);
      throw bodyFailure;
    }
    const result = await store.admitAndDecideReport(sender, {
      seed: body.seed,
      event: body.event,
      pluginVersion: REPORT_ROUTES[route] ? body.pluginVersion : undefined,
    });
    if (result.kind === 'limited' || result.kind === 'invalid') throw await refusalError(result);
    if (result.kind === 'outdated') {
      throw new HttpError(426, 'plugin_outdated', {
        minimum: result.minimum,
        downloadUrl: result.downloadUrl,
      });
    }
    const { decision } = result;
    if (decision.outcome === 'revoked') throw invalidCredential();
    const answer: ReportResponse = {
      ok: true,
      blockedUntil: decision.blockedUntil === null ? null : new Date(decision.blockedUntil).toISOString(),
    };
    if (decision.exhausted) answer.exhausted = true;
    if (decision.reason) answer.reason = decision.reason;
    sendJson(res, 200, answer);
  };
}

/**
 * A report as the front door sees it: a POST to one of the two routes spelled exactly (the
 * route), or null. Other spellings express matches (reportRoutes).
 */
export function plainReport(apiPrefix: string): (req: IncomingMessage, path: string) => ReportRoute | null {
  return (req, path) => {
    if (req.method !== 'POST' || !path.startsWith(apiPrefix)) return null;
    const route = path.slice(apiPrefix.length);
    return Object.hasOwn(REPORT_ROUTES, route) ? (route as ReportRoute) : null;
  };
}

/** Each report route's metrics label (its path under the API prefix), made once. */
export const reportRouteLabels = (apiPrefix: string) =>
  Object.fromEntries(Object.keys(REPORT_ROUTES).map((route) => [route, `${apiPrefix}${route}`])) as Record<
    ReportRoute,
    string
  >;

/** The same answers as express routes of the API router, for the spellings express also matches. */
export function reportRoutes(answer: ReportAnswers): Router {
  const router = Router();
  for (const route of Object.keys(REPORT_ROUTES) as ReportRoute[]) {
    router.post(route, (req, res, next) => answer(req, res, route).catch(next));
  }
  return router;
}
