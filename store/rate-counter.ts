import type { StoreContext } from './context.ts';

export interface RateCount {
  hits: number;
  /** When the current fixed window ends, in ms. */
  resetAt: number;
}

/** Counts one request in the fixed window of `key` (see scripts/count-request.lua). */
export async function countRequest(ctx: StoreContext, key: string, windowMs: number): Promise<RateCount> {
  const [hits, resetAt] = await ctx.redis.countRequest(
    `${ctx.prefix}rate:${key}`,
    await ctx.clock.now(),
    windowMs,
  );
  return { hits, resetAt: Number(resetAt) };
}
