import type { IncomingMessage } from 'node:http';
import type { AuthenticatedKey, Store } from '../../store/index.ts';
import { clientIp } from './client-ip.ts';
import type { TrustProxy } from './trust-proxy.ts';
import { invalidCredential } from './http-error.ts';

export function bearerToken(req: IncomingMessage): string | null {
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return m ? m[1]! : null;
}

/**
 * The live key of `Authorization: Bearer <SERVER_KEY>`, else 401 `invalid credential`. Game-server
 * keys also must come from the IP they were registered at (spec 5.2), unless `trust` is null
 * (revoke: whoever holds a key may end it).
 */
export async function authenticatedKey(
  store: Store,
  req: IncomingMessage,
  trust: TrustProxy | null,
): Promise<AuthenticatedKey> {
  const token = bearerToken(req);
  const key = token ? await store.authenticate(token) : null;
  if (!key) {
    // A revoke retried after a 503 finds its key gone: `invalid credential` says it is revoked,
    // so it is said only once the replicas hold that too (store/replication.ts).
    if (trust === null) await store.ctx.confirmReplicated();
    throw invalidCredential();
  }
  if (trust !== null && key.kind !== 'http' && key.ip !== clientIp(req, trust)) throw invalidCredential();
  return key;
}
