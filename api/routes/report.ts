import type { ApiDeps } from '../deps.ts';
import { invalidCredential } from '../http/http-error.ts';
import { pluginOutdated } from '../http/plugin-version.ts';
import type { ReportBody, ReportResponse } from '../schemas.ts';
import type { Handler, Route } from './route.ts';

/**
 * POST /plugin/v1/report (4.5) and POST /v1/servers/report (4.2): one block engine behind both.
 * The checks run in the spec's order, all in the one round trip of store admitAndDecideReport:
 * the per-IP limit (429), the key (401), the per-key limit (429), then, with the body read and
 * valid (400, 413), the plugin minimum (426, on a route that declares it: the plugin's), then the
 * decision. The pipeline judges the script's refusals and counts a refused body (route.ts
 * ScriptAdmission); this is the decision and its answer.
 */
export function decideReport({ store }: ApiDeps, route: Route): Handler<{ body: ReportBody }> {
  const checksMinimum = route.pluginMinimum === true;
  return async (ctx) => {
    const { seed, event, pluginVersion } = ctx.body;
    const result = await ctx.admitted(
      await store.admitAndDecideReport(ctx.sender, {
        seed,
        event,
        pluginVersion: checksMinimum ? pluginVersion : undefined,
      }),
    );
    if (result.kind === 'outdated') throw pluginOutdated(result.minimum, result.downloadUrl);
    const { decision } = result;
    // The key was revoked while this report waited: the script's decision says so.
    if (decision.outcome === 'revoked') throw invalidCredential();
    const answer: ReportResponse = {
      ok: true,
      blockedUntil: decision.blockedUntil === null ? null : new Date(decision.blockedUntil).toISOString(),
    };
    if (decision.exhausted) answer.exhausted = true;
    if (decision.reason) answer.reason = decision.reason;
    ctx.send(200, answer);
  };
}
