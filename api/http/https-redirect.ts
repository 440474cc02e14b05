import type { Request } from 'express';

/**
 * HTTPS only (spec 1): where a request that reached our trusted proxy over plain http is sent
 * (301 to the same URL on https), or null. Requests from untrusted peers cannot trigger this with
 * a forged header, and direct local requests (no proxy) are served as they are.
 */
export function httpsLocation(req: Request): string | null {
  if (!req.headers['x-forwarded-proto']) return null;
  const trusted = req.app.get('trust proxy fn') as (addr: string, i: number) => boolean;
  if (!trusted(req.socket.remoteAddress ?? '', 0)) return null;
  if (req.protocol.toLowerCase() !== 'http') return null;
  return `https://${req.hostname}${req.originalUrl}`;
}
