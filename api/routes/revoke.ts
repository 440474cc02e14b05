import type { ApiDeps } from '../deps.ts';
import type { Handler } from './route.ts';

/**
 * POST /v1/servers/revoke (4.3): whoever holds a key can end it, from any IP, so an exposed HTTP
 * key can be stopped at once. The key is the bearer credential (its pipeline authenticates it:
 * 401 `invalid credential` for an unknown or already revoked key); any body is ignored.
 */
export function revokeKey({ store }: ApiDeps): Handler {
  return async (ctx) => {
    await store.revokeRegistration(ctx.key!.serverId);
    ctx.send(200, { ok: true });
  };
}
