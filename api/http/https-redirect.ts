import encodeUrl from 'encodeurl';
import type { IncomingMessage } from 'node:http';
import type { TrustProxy } from './trust-proxy.ts';

/** The first of a header's comma-separated values: what the proxy nearest the client wrote. */
const firstValue = (header: string) => {
  const comma = header.indexOf(',');
  return (comma === -1 ? header : header.slice(0, comma)).trim();
};

// A plain host[:port]: a DNS name, an IPv4 address or a bracketed IPv6 one. Nothing else (no
// `good.com@evil.com`, no path, no scheme) may be written into a Location.
const PLAIN_HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The host[:port] the client asked for: a trusted proxy's X-Forwarded-Host, else Host; null when it
 * is no plain host[:port] (or there is none: HTTP/1.0 needs no Host).
 */
export function requestHost(req: IncomingMessage, trust: TrustProxy): string | null {
  const forwarded = trust(req.socket.remoteAddress ?? '', 0) ? req.headers['x-forwarded-host'] : undefined;
  const host = (typeof forwarded === 'string' ? firstValue(forwarded) : req.headers.host) ?? '';
  return PLAIN_HOST.test(host) ? host : null;
}

/** A host[:port] without its port (express's `req.hostname`). */
function withoutPort(host: string): string {
  // An IPv6 literal's colons are not a port.
  const colon = host.indexOf(':', host.startsWith('[') ? host.indexOf(']') + 1 : 0);
  return colon === -1 ? host : host.slice(0, colon);
}

/** The request target's path and query; an absolute-form target (`http://evil.com/x`) gives `/x`. */
function pathAndQuery(target: string): string {
  if (target.startsWith('/')) return target;
  try {
    const url = new URL(target);
    return url.pathname + url.search;
  } catch {
    return '/';
  }
}

export type HttpsRedirect = { location: string } | { badHost: true };

/**
 * HTTPS only (spec 1): where a request that reached our trusted proxy over plain http is sent
 * (301 to the same path and query on https, encoded as a Location must be), or null to serve it.
 * The origin is `publicUrl` (PUBLIC_URL) when set, so no client-chosen Host or X-Forwarded-Host
 * reaches the Location; without it the asked-for host, which must then be a plain host[:port]
 * (else `badHost`: 400). Requests from untrusted peers cannot trigger this with a forged header,
 * and direct local requests (no proxy) are served as they are.
 */
export function httpsRedirect(
  req: IncomingMessage,
  trust: TrustProxy,
  publicUrl: string | undefined,
): HttpsRedirect | null {
  const proto = req.headers['x-forwarded-proto'];
  if (typeof proto !== 'string') return null;
  if (!trust(req.socket.remoteAddress ?? '', 0)) return null;
  if (firstValue(proto).toLowerCase() !== 'http') return null;
  const path = pathAndQuery(req.url ?? '/');
  if (publicUrl) return { location: encodeUrl(publicUrl + path) };
  const host = requestHost(req, trust);
  return host === null ? { badHost: true } : { location: encodeUrl(`https://${withoutPort(host)}${path}`) };
}
