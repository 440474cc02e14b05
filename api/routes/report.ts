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

/**
 * The answer of both report routes (one block engine behind both); `pluginMinimum`: whether the
 * route checks the plugin minimum (the plugin's route does).
 */
export type ReportAnswers = (
  req: IncomingMessage,
  res: ServerResponse,
  pluginMinimum: boolean,
) => Promise<void>;

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

  return async (req, res, pluginMinimum) => {
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
      pluginVersion: pluginMinimum ? body.pluginVersion : undefined,
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
