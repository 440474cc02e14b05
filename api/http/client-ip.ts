import type { Request } from 'express';
import { isIPv4 } from 'node:net';

/**
 * The request IP as the trusted proxy chain tells it (express `trust proxy`): an X-Forwarded-For
 * from an untrusted peer is ignored. IPv4-mapped IPv6 is shown as plain IPv4 so that one server
 * is one address whichever socket family it arrived on.
 */
export function clientIp(req: Request): string {
  const ip = req.ip ?? req.socket.remoteAddress ?? '';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped && isIPv4(mapped[1]!) ? mapped[1]! : ip.toLowerCase();
}
