import type { Redis } from 'ioredis';

/**
 * The one source of time. Every duration of the spec is measured against it; Redis TTLs only
 * clean up. The manual clock lives in Redis so that all processes of a test run share it.
 */
export interface Clock {
  readonly kind: 'system' | 'manual';
  /** Milliseconds since the epoch. */
  now(): Promise<number>;
}

export const systemClock: Clock = {
  kind: 'system',
  now: async () => Date.now(),
};

export interface ManualClock extends Clock {
  readonly kind: 'manual';
  set(ms: number): Promise<number>;
  advance(ms: number): Promise<number>;
  /**
   * Moves the clock by `ms` unless it would land outside [min, max]: then it stays and null is
   * returned. One atomic step, so concurrent moves cannot together pass a bound.
   */
  advanceWithin(ms: number, min: number, max: number): Promise<number | null>;
}

const ADVANCE_WITHIN = `
local t = tonumber(redis.call('GET', KEYS[1])) + tonumber(ARGV[1])
if t < tonumber(ARGV[2]) or t > tonumber(ARGV[3]) then return false end
redis.call('SET', KEYS[1], string.format('%d', t))
return string.format('%d', t)`;

/** A clock that stands still until moved; starts at the real time when first read. */
export function manualClock(redis: Redis, prefix: string): ManualClock {
  const key = `${prefix}clock`;
  return {
    kind: 'manual',
    async now() {
      const stored = await redis.get(key);
      if (stored !== null) return Number(stored);
      await redis.set(key, String(Date.now()), 'NX');
      return Number(await redis.get(key));
    },
    async set(ms) {
      await redis.set(key, String(ms));
      return ms;
    },
    async advance(ms) {
      await this.now();
      return Number(await redis.incrby(key, Math.round(ms)));
    },
    async advanceWithin(ms, min, max) {
      await this.now();
      const moved = (await redis.eval(ADVANCE_WITHIN, 1, key, Math.round(ms), min, max)) as string | null;
      return moved === null ? null : Number(moved);
    },
  };
}
