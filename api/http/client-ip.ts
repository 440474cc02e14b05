import type { IncomingMessage } from 'node:http';
import { isIPv4 } from 'node:net';
import proxyaddr from 'proxy-addr';
import { canonicalIp } from '../../net/ip-address.ts';
import type { TrustProxy } from './trust-proxy.ts';

/**
 * The request IP as the trusted proxy chain tells it (what express calls `req.ip`): an
 * X-Forwarded-For from an untrusted peer is ignored. Written canonically (v4-mapped IPv6 as plain
 * IPv4, IPv6 compressed), so one server is one address however a proxy spelled it.
 */
export function clientIp(req: IncomingMessage, trust: TrustProxy): string {
  const peer = req.socket.remoteAddress ?? '';
  // No X-Forwarded-For: the peer is the client whatever the proxy trust (and proxy-addr's parse
  // is skipped on the busiest path).
  const ip = req.headers['x-forwarded-for'] !== undefined ? proxyaddr(req, trust) : peer;
  // Dotted IPv4 (what most requests carry) is canonical already: skip the parse on the hot path.
  if (isIPv4(ip)) return ip;
  // An entry that is no IP address ("unknown", "1.2.3.4:5", any text a client slipped past a
  // trusted hop) is not believed: the peer is the client then, so no client names its own rate
  // limit key or the address a registration records.
  return canonicalIp(ip) ?? canonicalIp(peer) ?? peer;
}
