import type { RequestHandler } from 'express';
import type { IncomingMessage } from 'node:http';
import type { AuthenticatedKey, Store } from '../../store/index.ts';
import { clientIp } from './client-ip.ts';
import type { TrustProxy } from './trust-proxy.ts';
import { invalidCredential } from './http-error.ts';

declare module 'express-serve-static-core' {
  interface Request {
    /** The server key that authenticated this request (set by `authenticateKey`). */
    serverKey?: AuthenticatedKey;
  }
}

export function bearerToken(req: IncomingMessage): string | null {
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  return m ? m[1]! : null;
}

/**
 * Requires `Authorization: Bearer <SERVER_KEY>` of a live key. Game-server keys also must come
 * from the IP they were registered at (spec 5.2), unless `anyIp` (revoke: whoever holds a key
 * may end it).
 */
export function authenticateKey(store: Store, from: { anyIp: true } | { trust: TrustProxy }): RequestHandler {
  return async (req, _res, next) => {
    const token = bearerToken(req);
    const key = token ? await store.authenticate(token) : null;
    if (!key) {
      // A revoke retried after a 503 finds its key gone: `invalid credential` says it is revoked,
      // so it is said only once the replicas hold that too (store/replication.ts).
      if ('anyIp' in from) await store.ctx.confirmReplicated();
      return next(invalidCredential());
    }
    if ('trust' in from && key.kind !== 'http' && key.ip !== clientIp(req, from.trust)) {
      return next(invalidCredential());
    }
    req.serverKey = key;
    next();
  };
}
