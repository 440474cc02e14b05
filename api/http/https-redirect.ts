import type { RequestHandler } from 'express';

/**
 * HTTPS only (spec 1): a request that reached our trusted proxy over plain http gets 301 to the
 * same URL on https. Requests from untrusted peers cannot trigger this with a forged header, and
 * direct local requests (no proxy) are served as they are.
 */
export const httpsRedirect: RequestHandler = (req, res, next) => {
  const forwarded = req.get('x-forwarded-proto');
  if (!forwarded) return next();
  const trusted = req.app.get('trust proxy fn') as (addr: string, i: number) => boolean;
  if (!trusted(req.socket.remoteAddress ?? '', 0)) return next();
  if (req.protocol.toLowerCase() !== 'http') return next();
  res.redirect(301, `https://${req.hostname}${req.originalUrl}`);
};
