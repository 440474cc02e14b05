import encodeUrl from 'encodeurl';
import type { IncomingMessage } from 'node:http';
import type { TrustProxy } from './trust-proxy.ts';

/** The first of a header's comma-separated values: what the proxy nearest the client wrote. */
const firstValue = (header: string) => {
  const comma = header.indexOf(',');
  return (comma === -1 ? header : header.slice(0, comma)).trim();
};

/**
 * The host the client asked for, without its port (express's `req.hostname`), for a request from a
 * trusted proxy: its X-Forwarded-Host, else Host.
 */
function hostname(req: IncomingMessage): string {
  const forwarded = req.headers['x-forwarded-host'];
  const host = (typeof forwarded === 'string' ? firstValue(forwarded) : req.headers.host) ?? '';
  // An IPv6 literal's colons are not a port.
  const colon = host.indexOf(':', host.startsWith('[') ? host.indexOf(']') + 1 : 0);
  return colon === -1 ? host : host.slice(0, colon);
}

/**
 * HTTPS only (spec 1): where a request that reached our trusted proxy over plain http is sent
 * (301 to the same URL on https, encoded as a Location must be), or null. Requests from untrusted
 * peers cannot trigger this with a forged header, and direct local requests (no proxy) are served
 * as they are.
 */
export function httpsLocation(req: IncomingMessage, trust: TrustProxy): string | null {
  const proto = req.headers['x-forwarded-proto'];
  if (typeof proto !== 'string') return null;
  if (!trust(req.socket.remoteAddress ?? '', 0)) return null;
  if (firstValue(proto).toLowerCase() !== 'http') return null;
  return encodeUrl(`https://${hostname(req)}${req.url}`);
}
