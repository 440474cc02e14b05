import type { Redis } from 'ioredis';

/**
 * The one source of time: Redis's. Every decision that depends on time is a Lua script that reads
 * it there (scripts/includes/clock.lua), so processes whose clocks disagree decide alike; a
 * process's own clock serves only its logs and HTTP `Date`. The manual clock (tests) lives in
 * Redis too, so that all processes of a test run share it. Redis TTLs only clean up.
 */
export interface Clock {
  readonly kind: 'system' | 'manual';
  /** A script's clock argument (includes/clock.lua): '' for Redis's TIME, else the manual clock's key. */
  readonly scriptArg: string;
  /** Milliseconds since the epoch by this clock, for the few reads outside a script. */
  now(): Promise<number>;
}

/** Redis's TIME in ms. */
export async function redisTime(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

/** Redis's own clock. */
export function redisClock(redis: Redis): Clock {
  return { kind: 'system', scriptArg: '', now: () => redisTime(redis) };
}

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

/** A clock that stands still until moved; starts at Redis's time when first read (as the scripts do). */
export function manualClock(redis: Redis, prefix: string): ManualClock {
  const key = `${prefix}clock`;
  return {
    kind: 'manual',
    scriptArg: key,
    async now() {
      const stored = await redis.get(key);
      if (stored !== null) return Number(stored);
      await redis.set(key, String(await redisTime(redis)), 'NX');
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
