import type { Request, RequestHandler } from 'express';
import type { IncomingMessage } from 'node:http';
import {
  ipKeyGenerator,
  rateLimit,
  type AugmentedRequest,
  type IncrementResponse,
  type Store as LimiterStore,
} from 'express-rate-limit';
import { RATE_LIMITS, type RateLimitName, type Store } from '../../store/index.ts';
import { HttpError } from './http-error.ts';
import { clientIp } from './client-ip.ts';
import type { TrustProxy } from './trust-proxy.ts';

// The limits of spec part 8, shared by every API process through Redis (fixed windows from the
// first request; requests past the limit still count). The counter is our own Lua script, run on
// every call, so a Redis restart or an outage at start-up cannot leave the limiter broken.

class RedisCounterStore implements LimiterStore {
  readonly localKeys = false;
  private readonly store: Store;
  readonly prefix: string;
  private readonly windowMs: number;

  constructor(store: Store, prefix: string, windowMs: number) {
    this.store = store;
    this.prefix = prefix;
    this.windowMs = windowMs;
  }

  async increment(key: string): Promise<IncrementResponse> {
    const { hits, resetAt } = await this.store.countRequest(`${this.prefix}:${key}`, this.windowMs);
    return { totalHits: hits, resetTime: new Date(resetAt) };
  }
  // A request is never taken back (spec 8: requests past the limit still count); express-rate-limit
  // calls this only for skipFailedRequests / skipSuccessfulRequests, which no limiter sets.
  async decrement(): Promise<void> {}
  async resetKey(key: string): Promise<void> {
    await this.store.resetRequestCount(`${this.prefix}:${key}`);
  }
}

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

export interface LimiterOptions {
  store: Store;
  name: RateLimitName;
  /** Whose count a request adds to. */
  key: (req: Request) => string;
  multiplier: number;
  /** Count only requests that end with one of these statuses (e.g. maps counts uncached seeds). */
  skip?: (req: Request) => boolean;
}

export function limiter({ store, name, key, multiplier, skip }: LimiterOptions): RequestHandler {
  const { limit, windowMs } = RATE_LIMITS[name];
  return rateLimit({
    windowMs,
    limit: limit * multiplier,
    store: new RedisCounterStore(store, name, windowMs),
    keyGenerator: (req) => key(req),
    skip: skip ? (req) => skip(req) : undefined,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    passOnStoreError: false,
    // Our keys are already IP-safe and the clock may be the manual one: judge Retry-After by it.
    validate: { keyGeneratorIpFallback: false, trustProxy: false, xForwardedForHeader: false },
    retryAfter: (req) =>
      retryAfterSeconds(store, (req as AugmentedRequest).rateLimit?.resetTime?.getTime() ?? 0),
    handler: (_req, _res, next) => next(new HttpError(429, 'rate limited')),
  });
}

/**
 * Counts one use of a limit from inside a handler (for a step that only some requests reach,
 * like the self-claim probe); throws 429 with Retry-After past the limit.
 */
export async function spendLimit(store: Store, name: RateLimitName, key: string, multiplier: number) {
  const { limit, windowMs } = RATE_LIMITS[name];
  const { hits, resetAt } = await store.countRequest(`${name}:${key}`, windowMs);
  if (hits <= limit * multiplier) return;
  throw await rateLimited(store, resetAt);
}

/** Whole seconds until `resetAt` (ms) by the store's clock, at least 1: a 429's Retry-After. */
async function retryAfterSeconds(store: Store, resetAt: number): Promise<number> {
  return Math.max(1, Math.ceil((resetAt - (await store.ctx.clock.now())) / 1000));
}

/** The 429 of a limit whose window ends at `resetAt` (ms). */
export async function rateLimited(store: Store, resetAt: number): Promise<HttpError> {
  const seconds = await retryAfterSeconds(store, resetAt);
  return new HttpError(429, 'rate limited', {}, { 'Retry-After': String(seconds) });
}
