import type { IncomingMessage } from 'node:http';
import { firstValue, requestHost } from './https-redirect.ts';
import type { TrustProxy } from './trust-proxy.ts';

/**
 * The origin absolute URLs in pages name (a seed page's share tags: og:url, og:image): PUBLIC_URL
 * when set; else the scheme and host the client asked for, if the host passes the https
 * redirect's check (a plain host[:port]); else null, and a page names none. Without PUBLIC_URL a
 * client still picks the host its own answer names (harmless to others unless a shared cache
 * keeps that answer for them), which is why a deployment behind a proxy sets it.
 */
export function publicOrigin(
  req: IncomingMessage,
  trust: TrustProxy,
  publicUrl: string | undefined,
): string | null {
  if (publicUrl) return publicUrl;
  const host = requestHost(req, trust);
  if (host === null) return null;
  const proto = req.headers['x-forwarded-proto'];
  const https =
    typeof proto === 'string' &&
    trust(req.socket.remoteAddress ?? '', 0) &&
    firstValue(proto).toLowerCase() === 'https';
  return `${https ? 'https' : 'http'}://${host}`;
}
