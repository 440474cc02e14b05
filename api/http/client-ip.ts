import type { IncomingMessage } from 'node:http';
import { isIPv4 } from 'node:net';
import proxyaddr from 'proxy-addr';
import { canonicalIp } from '../probe/ip-address.ts';
import type { TrustProxy } from './trust-proxy.ts';

/**
 * The request IP as the trusted proxy chain tells it (what express calls `req.ip`): an
 * X-Forwarded-For from an untrusted peer is ignored. Written canonically (v4-mapped IPv6 as plain
 * IPv4, IPv6 compressed), so one server is one address however a proxy spelled it.
 */
export function clientIp(req: IncomingMessage, trust: TrustProxy): string {
  // No X-Forwarded-For: the peer is the client whatever the proxy trust (and proxy-addr's parse
  // is skipped on the busiest path).
  const forwarded = req.headers['x-forwarded-for'] !== undefined;
  const ip = (forwarded ? proxyaddr(req, trust) : req.socket.remoteAddress) ?? '';
  // Dotted IPv4 (what most requests carry) is canonical already: skip the parse on the hot path.
  if (isIPv4(ip)) return ip;
  return canonicalIp(ip) ?? ip.toLowerCase();
}
