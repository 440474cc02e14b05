import type { RequestHandler } from 'express';
import type { IncomingMessage } from 'node:http';
import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerToken } from './authenticate.ts';
import { HttpError } from './http-error.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time, else 401 `invalid token`; no
 * token set, no access.
 */
export function adminCheck(adminToken: string | undefined): (req: IncomingMessage) => void {
  const expected = adminToken ? digest(adminToken) : null;
  return (req) => {
    const token = bearerToken(req);
    if (!expected || !token || !timingSafeEqual(digest(token), expected))
      throw new HttpError(401, 'invalid token');
  };
}

/** The same check as express middleware (GET /metrics). */
export function requireAdmin(adminToken: string | undefined): RequestHandler {
  const check = adminCheck(adminToken);
  return (req, _res, next) => {
    check(req);
    next();
  };
}
