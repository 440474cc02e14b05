import type { ErrorRequestHandler } from 'express';
import { SEED_MAX, SEED_MIN } from '../../store/index.ts';
import { SeedParamSchema } from '../schemas.ts';
import { HttpError, RETRY_SOON_SECONDS } from './http-error.ts';

// Answers the read routes share (spec 4.7, 4.8).

/**
 * The seed a path or query names, or undefined for a malformed one. A seed written canonically
 * (every map read's) passes without the schema: a valid seed's own decimal text is what
 * SeedParamSchema accepts, and the schema judges everything else.
 */
export function readSeed(value: unknown): number | undefined {
  const seed = Number(value);
  if (seed >= SEED_MIN && seed <= SEED_MAX && Number.isInteger(seed) && String(seed) === value) return seed;
  const parsed = SeedParamSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/** The seed a path or query names, else 400 `invalid seed`. */
export function parseSeedParam(value: unknown): number {
  const seed = readSeed(value);
  if (seed === undefined) throw new HttpError(400, 'invalid seed');
  return seed;
}

/**
 * A seed that is not even valid percent-encoding (`/maps/%E0%A4`) fails in the router, before the
 * handler: it is a malformed seed all the same, so 400 `invalid seed` (4.7, 4.8), not the generic
 * `invalid request`. Mount after the seed route, in the same router.
 */
export const undecodableSeed: ErrorRequestHandler = (err, _req, _res, next) =>
  next(err instanceof URIError ? new HttpError(400, 'invalid seed') : err);

/** 403 `blocked`, with `blockedUntil` for a window, without it for the permanent blocklist. */
export function blockedError(block: { kind: 'blocked'; until: number } | { kind: 'permanent' }): HttpError {
  const extra = block.kind === 'blocked' ? { blockedUntil: new Date(block.until).toISOString() } : {};
  return new HttpError(403, 'blocked', extra, { 'Cache-Control': 'no-store' });
}

export const mapUnavailable = () =>
  new HttpError(
    503,
    'map unavailable',
    { status: 'busy' },
    { 'Retry-After': String(RETRY_SOON_SECONDS), 'Cache-Control': 'no-store' },
  );
