import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../../runtime/config.ts';
import { clientIp } from './client-ip.ts';
import { sendJson } from './json-answer.ts';
import { ipLimitKey } from './rate-limit.ts';
import type { TrustProxy } from './trust-proxy.ts';

/** How often node looks for requests past HEADERS_TIMEOUT_MS or REQUEST_TIMEOUT_MS (its default: 30 s). */
export const TIMEOUT_CHECK_MS = 1_000;

type Limits = Pick<Config, 'HEADERS_TIMEOUT_MS' | 'REQUEST_TIMEOUT_MS' | 'KEEP_ALIVE_TIMEOUT_MS'>;

/**
 * Bounds the time a client may take for its headers and its whole request, and keeps an idle
 * connection open longer than the proxies in front keep theirs. The process's sockets are bounded
 * by capIdleConnections (idle-connections.ts).
 */
export function boundSlowClients(server: Server, limits: Limits): void {
  server.headersTimeout = limits.HEADERS_TIMEOUT_MS;
  server.requestTimeout = limits.REQUEST_TIMEOUT_MS;
  // A proxy reuses an idle upstream connection until its own idle timeout: were ours shorter, it
  // would send a request on a connection we had just closed (a 502 to its client). Node's
  // headersTimeout runs from the first byte of each request, never across the idle time between
  // two (node 18 on; test/drills/keep-alive.test.ts), so it stays short: slow headers stay costly.
  server.keepAliveTimeout = limits.KEEP_ALIVE_TIMEOUT_MS;
}

/**
 * Bounds the bodies being received: from a request's headers until its body has been read to the
 * end (or its socket closed), whether or not it has been answered (an answer sent early leaves
 * node reading the rest). A body held open slowly costs memory until REQUEST_TIMEOUT_MS, so:
 *
 * - each client IP (as TRUST_PROXY judges it, per ipLimitKey: behind a CDN the socket's peer is
 *   the CDN, so the forwarded address is what counts) sends at most `perIp` at once; a request past
 *   it is answered 429 and its socket closed before its body is read;
 * - the process receives at most `inFlight` at once, from every client together; a request past it
 *   closes the socket of the oldest body still being received and takes its place. A body sent at
 *   network speed takes milliseconds, so the oldest is one held open slowly: many clients holding
 *   bodies open (each under its own cap) cost at most `inFlight` bodies, are closed as soon as
 *   newer ones arrive, and never lock a live client out.
 *
 * Requests without a body (map reads, most of the traffic) pass with two header lookups.
 */
export function limitBodies(
  next: RequestListener,
  { perIp, inFlight, trust }: { perIp: number; inFlight: number; trust: TrustProxy },
): RequestListener<typeof IncomingMessage, typeof ServerResponse> {
  // The sockets whose body is being received, oldest first (a Map keeps insertion order), with
  // their client's key. By socket, not request: once a request is answered node drops it without
  // an event if its socket closes mid-body, and a socket receives one body at a time.
  const receiving = new Map<Socket, string>();
  const perKey = new Map<string, number>();
  function release(socket: Socket) {
    const key = receiving.get(socket);
    if (key === undefined) return;
    receiving.delete(socket);
    const left = perKey.get(key)! - 1;
    if (left === 0) perKey.delete(key);
    else perKey.set(key, left);
  }
  // Shared listeners (no closure per request), with `on`, not `once`, whose wrapper is one more
  // allocation per body. A socket's is added with its first body and stays (adding and removing
  // it per body rewrote the socket's listener list each time); a request ends once. A release of
  // a socket not receiving does nothing.
  const watched = new WeakSet<Socket>();
  function socketClosed(this: Socket) {
    release(this);
  }
  function bodyEnded(this: IncomingMessage) {
    release(this.socket);
  }
  return (req, res) => {
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      return next(req, res);
    }
    const key = ipLimitKey(clientIp(req, trust));
    const open = perKey.get(key) ?? 0;
    const socket = req.socket;
    if (open >= perIp) {
      res.once('finish', () => socket.destroy());
      sendJson(res, 429, { error: 'rate limited' }, { 'Retry-After': 1, Connection: 'close' });
      return;
    }
    if (receiving.size >= inFlight) {
      const oldest = receiving.keys().next().value!;
      release(oldest);
      oldest.destroy();
    }
    receiving.set(socket, key);
    perKey.set(key, open + 1);
    if (!watched.has(socket)) {
      watched.add(socket);
      socket.on('close', socketClosed);
    }
    req.on('end', bodyEnded);
    next(req, res);
  };
}
