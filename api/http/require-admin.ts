import type { RequestHandler } from 'express';
import { createHash, timingSafeEqual } from 'node:crypto';
import { bearerToken } from './authenticate.ts';
import { HttpError } from './http-error.ts';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time; no token set, no access. */
export function requireAdmin(adminToken: string | undefined): RequestHandler {
  const expected = adminToken ? digest(adminToken) : null;
  return (req, _res, next) => {
    const token = bearerToken(req);
    if (!expected || !token || !timingSafeEqual(digest(token), expected)) {
      return next(new HttpError(401, 'invalid token'));
    }
    next();
  };
}
