import type { ApiDeps } from '../deps.ts';
import { HttpError } from '../http/http-error.ts';
import type { PluginClaimBody } from '../schemas.ts';
import type { Handler } from './route.ts';

/**
 * POST /plugin/v1/claim (4.4): registers the game server at the request IP and the given port
 * with a one-time code from the chat bot. 200 verified, 202 review, 401 invalid code, 403 claim
 * rejected (426 plugin_outdated and 429 past 10 per minute per IP come from its pipeline).
 */
export function pluginClaim({ store }: ApiDeps): Handler<{ body: PluginClaimBody }> {
  return async (ctx) => {
    const result = await store.claimWithCode({ ...ctx.body, ip: ctx.clientIp });
    // A verified answer carries the credential, shown this once: no cache may keep it (nor the
    // review answer, which is about one code).
    const headers = { 'Cache-Control': 'no-store' };
    switch (result.status) {
      case 'verified':
        return ctx.send(200, result, headers);
      case 'review':
        return ctx.send(202, result, headers);
      case 'invalid code':
        throw new HttpError(401, 'invalid code');
      case 'claim rejected':
        throw new HttpError(403, 'claim rejected');
    }
  };
}
