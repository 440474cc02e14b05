import type { ApiDeps } from '../deps.ts';
import { authenticateKey } from '../http/authenticate.ts';
import type { Handler } from './route.ts';

/**
 * POST /v1/servers/revoke (4.3): whoever holds a key can end it, from any IP, so an exposed HTTP
 * key can be stopped at once. The key is the bearer credential; any body is ignored.
 * 200 `{"ok":true}`; 401 `invalid credential` for an unknown or already revoked key.
 */
export function revokeKey({ store }: ApiDeps): Handler[] {
  return [
    authenticateKey(store, { anyIp: true }),
    async (req, res) => {
      await store.revokeRegistration(req.serverKey!.serverId);
      res.json({ ok: true });
    },
  ];
}
