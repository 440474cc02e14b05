import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Config } from '../../store/config.ts';
import { clientIp } from './client-ip.ts';
import { sendJson } from './json-answer.ts';
import { ipLimitKey } from './rate-limit.ts';
import type { TrustProxy } from './trust-proxy.ts';

/** How often node looks for requests past HEADERS_TIMEOUT_MS or REQUEST_TIMEOUT_MS (its default: 30 s). */
export const TIMEOUT_CHECK_MS = 1_000;

type Limits = Pick<
  Config,
  'HEADERS_TIMEOUT_MS' | 'REQUEST_TIMEOUT_MS' | 'MAX_CONNECTIONS' | 'MAX_CONNECTIONS_PER_IP'
>;

/** Bounds the time a client may take for its headers and its whole request, and the process's sockets. */
export function boundSlowClients(server: Server, limits: Limits): void {
  server.headersTimeout = limits.HEADERS_TIMEOUT_MS;
  server.requestTimeout = limits.REQUEST_TIMEOUT_MS;
  // Past it node closes new sockets at once, before they cost a request.
  server.maxConnections = limits.MAX_CONNECTIONS;
}

/**
 * Lets each client IP (as TRUST_PROXY judges it, per ipLimitKey: behind a CDN the socket's peer is
 * the CDN, so the forwarded address is what counts) send at most MAX_CONNECTIONS_PER_IP bodies at
 * once; a request past it is answered 429 and its socket closed before its body is read. A body
 * held open slowly costs memory until REQUEST_TIMEOUT_MS: so one client holds at most that many.
 * Requests without a body (map reads, most of the traffic) pass with two header lookups.
 */
export function limitBodiesPerIp(
  next: RequestListener,
  perIp: number,
  trust: TrustProxy,
): RequestListener<typeof IncomingMessage, typeof ServerResponse> {
  const receiving = new Map<string, number>();
  return (req, res) => {
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      return next(req, res);
    }
    const key = ipLimitKey(clientIp(req, trust));
    const open = receiving.get(key) ?? 0;
    if (open >= perIp) {
      res.on('finish', () => req.socket.destroy());
      sendJson(res, 429, { error: 'rate limited' }, { 'Retry-After': 1, Connection: 'close' });
      return;
    }
    receiving.set(key, open + 1);
    res.once('close', () => {
      const left = receiving.get(key)! - 1;
      if (left === 0) receiving.delete(key);
      else receiving.set(key, left);
    });
    next(req, res);
  };
}
