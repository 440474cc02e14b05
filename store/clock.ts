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
}

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
  };
}
