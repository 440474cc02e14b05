import type { RequestHandler } from 'express';
import type { IncomingMessage } from 'node:http';
import { ipKeyGenerator } from 'express-rate-limit';
import { RATE_LIMITS, type RateLimitName, type Store } from '../../store/index.ts';
import { HttpError } from './http-error.ts';
import { clientIp } from './client-ip.ts';
import type { TrustProxy } from './trust-proxy.ts';

// The limits of spec part 8 (store/constants.ts RATE_LIMITS), shared by every API process through
// Redis: fixed windows from the first request, and requests past the limit still count. Each route
// names its limits in the route table. Every limit is judged the same way, by the count-hit Lua
// include: here in its own round trip (applyLimit: before a route's handlers for a limit on every
// request, app.ts; in the handler for a limit on one step), or inside the one script of a report
// or a map read, which need it in the same round trip as their other checks. A 429 carries
// Retry-After (rateLimited).

/**
 * The key of every per-IP limit for a client IP as clientIp writes it: IPv4 dotted as it is, IPv6
 * grouped by its /56, as one subscriber usually holds one.
 */
export const ipLimitKey = (ip: string): string => (ip.includes(':') ? ipKeyGenerator(ip, 56) : ip);

/** Per client IP (ipLimitKey). */
export const byIp =
  (trust: TrustProxy) =>
  (req: IncomingMessage): string =>
    ipLimitKey(clientIp(req, trust));

/**
 * Counts one request against a limit (for a step only some requests reach, like the self-claim
 * probe, or a stats cache miss); throws 429 with Retry-After past it.
 */
export async function applyLimit(store: Store, name: RateLimitName, key: string, multiplier: number) {
  const { limit, windowMs } = RATE_LIMITS[name];
  const { hits, resetAt } = await store.countRequest(`${name}:${key}`, windowMs);
  if (hits <= limit * multiplier) return;
  throw await rateLimited(store, resetAt);
}

/** A per-IP limit counting every request of a route before anything else is read. */
export function limitPerIp(
  { store, trustProxy, multiplier }: { store: Store; trustProxy: TrustProxy; multiplier: number },
  name: RateLimitName,
): RequestHandler {
  const key = byIp(trustProxy);
  return async (req, _res, next) => {
    await applyLimit(store, name, key(req), multiplier);
    next();
  };
}

/** The 429 of a limit whose window ends at `resetAt` (ms): Retry-After in whole seconds, at least 1. */
export async function rateLimited(store: Store, resetAt: number): Promise<HttpError> {
  const seconds = Math.max(1, Math.ceil((resetAt - (await store.ctx.clock.now())) / 1000));
  return new HttpError(429, 'rate limited', {}, { 'Retry-After': String(seconds) });
}
